package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.merge.MergeEngineRules;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.SnapshotManager;
import java.util.Map;

/**
 * Checks a table's {@code changelog-producer} against what Basalt produces. Basalt writes the
 * {@code input} changelog; a table asking for a producer Basalt does not implement yet (typically
 * one Paimon created) is never written or expired, so Paimon's streaming readers never miss changes
 * and expiration never deletes a changelog file they still need.
 */
public final class ChangelogProducerGuard {
  /** The option, as Paimon spells it. */
  public static final String OPTION = ChangelogOptions.CHANGELOG_PRODUCER.key();

  private ChangelogProducerGuard() {}

  /** The table's producer, lower case; {@code none} when unset. */
  public static String producer(Options options) {
    return options.get(ChangelogOptions.CHANGELOG_PRODUCER);
  }

  /** Whether Basalt writes this producer's changelog. */
  private static boolean supported(String producer) {
    return ChangelogOptions.NONE.equals(producer)
        || ChangelogOptions.INPUT.equals(producer)
        || ChangelogOptions.LOOKUP.equals(producer)
        || ChangelogOptions.FULL_COMPACTION.equals(producer);
  }

  /**
   * Refuses to change the data or history of an existing table whose changelog Basalt cannot
   * produce.
   *
   * @param options the table's options
   * @param table the table's name, for the message
   * @param action what was refused, e.g. "write to" or "expire snapshots of"
   * @throws BasaltException when the option names a producer Basalt does not implement
   */
  public static void checkWritable(Map<String, String> options, String table, String action) {
    String producer = producer(new Options(options, "table " + table));
    if (!supported(producer)) {
      throw new BasaltException(
          String.format(
              "Cannot %s table %s: it has '%s' = '%s', a changelog Basalt does not produce yet"
                  + " (Basalt produces '%s' and '%s'); nothing was changed. Fix: ALTER TABLE %s"
                  + " UNSET TBLPROPERTIES ('%s') if no reader needs its changelog, or write to it"
                  + " with Apache Paimon.",
              action,
              table,
              OPTION,
              producer,
              ChangelogOptions.NONE,
              ChangelogOptions.INPUT,
              table,
              OPTION));
    }
  }

  /**
   * Refuses an ALTER TABLE that changes the producer of a table whose snapshots still reference
   * changelog files: readers of those snapshots' changes would no longer find them (a table without
   * producer reads no changelog files), or would find two kinds of changelog mixed.
   *
   * @param snapshots the table's snapshots
   * @throws BasaltException naming the table, both values and the fix
   */
  public static void checkProducerChange(
      Options before, Options after, SnapshotManager snapshots, String table) {
    String old = producer(before);
    String next = producer(after);
    if (old.equals(next) || ChangelogOptions.NONE.equals(old)) {
      return;
    }
    for (long id : snapshots.ids()) {
      if (snapshots.exists(id) && snapshots.snapshot(id).changelogManifestList() != null) {
        throw new BasaltException(
            String.format(
                "Cannot change '%s' of table %s from '%s' to '%s': snapshot %s and maybe later"
                    + " ones reference changelog files of '%s', which readers of their changes"
                    + " would lose. Fix: keep '%s' = '%s' until those snapshots have expired"
                    + " (CALL sys.expire_snapshots), then change it.",
                OPTION, table, old, next, id, old, OPTION, old));
      }
    }
  }

  /**
   * Checks a new or altered table definition: the producer is known and implemented, fits the
   * table's key and merge engine, and its sub-options fit the producer.
   *
   * @throws BasaltException naming the table, the option, the value and the fix
   */
  public static void checkDefinition(TableSchema schema, Options options, String table) {
    String producer = producer(options);
    boolean rowDeduplicate = options.get(ChangelogOptions.ROW_DEDUPLICATE);
    if (rowDeduplicate
        && (ChangelogOptions.NONE.equals(producer) || ChangelogOptions.INPUT.equals(producer))) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = 'true' with '%s' = '%s': only the 'lookup' and"
                  + " 'full-compaction' producers compare before and after images. Fix: remove"
                  + " '%s', or choose one of those producers.",
              table,
              ChangelogOptions.ROW_DEDUPLICATE.key(),
              OPTION,
              producer,
              ChangelogOptions.ROW_DEDUPLICATE.key()));
    }
    if (ChangelogOptions.NONE.equals(producer)) {
      return;
    }
    if (!schema.hasPrimaryKey()) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = '%s': it has no primary key, and changelogs are"
                  + " produced for primary-key tables only (an append table's incremental read"
                  + " already returns its new rows). Fix: remove '%s', or declare a"
                  + " 'primary-key'.",
              table, OPTION, producer, OPTION));
    }
    if (!MergeEngineRules.of(options).writtenRowsAreChanges()
        && (ChangelogOptions.INPUT.equals(producer)
            || ChangelogOptions.FULL_COMPACTION.equals(producer))) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = '%s' with '%s' = 'first-row': a first-row table keeps"
                  + " the first row of each key, so the rows as written are not its changes."
                  + " Fix: set '%s' to 'none' or 'lookup'.",
              table, OPTION, producer, TableOptions.MERGE_ENGINE.key(), OPTION));
    }
    FullCompactionRules.check(schema, producer, options, table);
    if (!supported(producer)) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = '%s': Basalt does not produce that changelog yet"
                  + " (it produces '%s' and '%s'). Fix: set '%s' to '%s' or '%s'.",
              table,
              OPTION,
              producer,
              ChangelogOptions.NONE,
              ChangelogOptions.INPUT,
              OPTION,
              ChangelogOptions.INPUT,
              ChangelogOptions.NONE));
    }
  }
}

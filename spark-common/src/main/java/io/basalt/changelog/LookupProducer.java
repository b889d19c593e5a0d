package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.merge.MergeEngine;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.SnapshotManager;

/**
 * Paimon's {@code lookup} changelog producer. Besides the changelog, it fixes the layout of a
 * bucket: whenever level 0 moves up, the lookup merges each key's new rows with its previous merged
 * value, so above level 0 each key's newest row is its whole merged value (older rows of the key in
 * lower levels are superseded, not merged again). Reads and compactions of such a table merge
 * accordingly, as Paimon's do.
 */
public final class LookupProducer {
  private LookupProducer() {}

  /** Whether the table's {@code changelog-producer} is {@code lookup}. */
  public static boolean enabled(Options options) {
    return ChangelogOptions.LOOKUP.equals(ChangelogProducerGuard.producer(options));
  }

  /**
   * Refuses an ALTER TABLE that turns on the lookup producer of a partial-update or aggregation
   * table that has data and no deletion vectors: its levels above 0 hold partial rows (or aggregate
   * inputs), which a lookup table would read as whole merged rows.
   *
   * @param next the altered schema, with its options
   * @throws BasaltException naming the table, the merge engine and the fix
   */
  public static void checkSwitch(
      Options before, TableSchema next, Options after, SnapshotManager snapshots, String table) {
    if (enabled(before)
        || !enabled(after)
        || after.get(TableOptions.DELETION_VECTORS_ENABLED)
        || !MergeEngine.of(next, after, table).mergesWithOldValue()
        || snapshots.latestSnapshotId().isEmpty()) {
      return;
    }
    throw new BasaltException(
        String.format(
            "Cannot set '%s' = 'lookup' on table %s: it is a '%s' table with data and without"
                + " deletion vectors, whose files hold rows as written, while a lookup table reads"
                + " each key's newest row above level 0 as its whole merged row. Nothing was"
                + " changed. Fix: create a new table with '%s' = 'lookup' and copy the rows (INSERT"
                + " INTO <new table> SELECT * FROM %s), or set it while the table is empty.",
            ChangelogProducerGuard.OPTION,
            table,
            after.get(TableOptions.MERGE_ENGINE),
            ChangelogProducerGuard.OPTION,
            table));
  }
}

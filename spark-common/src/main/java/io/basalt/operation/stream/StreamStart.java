package io.basalt.operation.stream;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.consumer.ConsumerManager;
import io.basalt.merge.MergeEngine;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.options.StreamOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Where a new streaming read starts, from {@code scan.mode} and its companion options, as Paimon
 * resolves them. A consumer that already recorded progress resumes where it stopped.
 */
public final class StreamStart {
  private StreamStart() {}

  /**
   * @throws BasaltException for an unknown mode, a mode without the option it needs, or a start
   *     snapshot that expired (naming the earliest left)
   */
  public static StreamPosition resolve(FileStoreTable table) {
    Options options = table.options();
    String consumer = options.getOptional(StreamOptions.CONSUMER_ID).orElse(null);
    if (consumer != null) {
      ConsumerManager.checkId(consumer, table.name());
      OptionalLong next = new ConsumerManager(table.fileIO(), table.paths()).nextSnapshot(consumer);
      if (next.isPresent()) {
        return new StreamPosition(next.getAsLong(), 0, false);
      }
    }
    String mode = options.get(StreamOptions.SCAN_MODE);
    if (mode.equals("default")) {
      mode = defaultMode(options);
    }
    OptionalLong latest = table.snapshotManager().latestSnapshotId();
    switch (mode) {
      case "latest-full":
      case "full":
        return latest.isPresent()
            ? new StreamPosition(latest.getAsLong(), 0, true)
            : new StreamPosition(1, 0, false);
      case "latest":
        return new StreamPosition(latest.orElse(0) + 1, 0, false);
      case "from-snapshot":
      case "from-snapshot-full":
        boolean full = mode.equals("from-snapshot-full");
        if (options.contains(ReadOptions.SCAN_TAG_NAME)) {
          Snapshot tagged = table.tagManager().get(options.get(ReadOptions.SCAN_TAG_NAME));
          return new StreamPosition(tagged.id(), 0, full);
        }
        long id = requiredSnapshotId(table, mode);
        // the start snapshot (or its decoupled changelog) must still exist; a future one (also on
        // an empty table) is waited for; a full start reads the snapshot's rows, which only a
        // snapshot has
        if (latest.isPresent() && id <= latest.getAsLong()) {
          if (full) {
            table.timeTravel().snapshot(id);
          } else {
            StreamSnapshots.forChanges(table, id);
          }
        }
        return new StreamPosition(id, 0, full);
      case "from-timestamp":
        return fromTimestamp(table);
      default:
        throw new IllegalStateException("Unhandled scan.mode " + mode);
    }
  }

  /**
   * Refuses a streaming read whose changes would carry wrong row kinds, as Paimon does:
   * partial-update and aggregation tables write partial rows, and a first-row table writes every
   * later duplicate of a key although only the first counts, so only a producer that looks up the
   * merged row (Paimon's {@code lookup} or {@code full-compaction}) can tell what changed. The
   * {@code input} producer does not help: its changelog holds the rows as written. (Paimon streams
   * those anyway, as "input records only"; Basalt refuses rather than give rows that are not the
   * table's.)
   *
   * @throws BasaltException naming the table, its merge engine and the fix
   */
  public static void checkStreamable(FileStoreTable table) {
    if (!table.hasPrimaryKey()) {
      return;
    }
    MergeEngine engine = MergeEngine.of(table);
    String producer = table.options().raw(ChangelogProducerGuard.OPTION).orElse("none").trim();
    boolean mergedRows =
        producer.equalsIgnoreCase("lookup") || producer.equalsIgnoreCase("full-compaction");
    if ((engine.mergesWithOldValue() || engine.keepsOldest()) && !mergedRows) {
      String why =
          producer.equalsIgnoreCase("input")
              ? "its 'input' changelog holds the rows as written, not the merged rows"
              : "without a changelog producer the stream cannot give the merged rows";
      String stores =
          engine.keepsOldest() ? "keeps only the first row of a key" : "stores partial rows";
      throw new BasaltException(
          String.format(
              "Cannot stream table %s: its merge engine '%s' %s and %s, so the stream cannot give"
                  + " correct row kinds ('%s' = '%s'). Fix: read it in batch, or ALTER TABLE %s"
                  + " SET TBLPROPERTIES ('%s' = 'lookup'), whose changelog holds the merged rows.",
              table.name(),
              engine.kind().value(),
              stores,
              why,
              ChangelogProducerGuard.OPTION,
              producer,
              table.name(),
              ChangelogProducerGuard.OPTION));
    }
  }

  private static String defaultMode(Options options) {
    if (options.contains(ReadOptions.SCAN_SNAPSHOT_ID)) {
      return "from-snapshot";
    }
    if (options.contains(ReadOptions.SCAN_TAG_NAME)) {
      return "from-snapshot-full";
    }
    if (options.contains(ReadOptions.SCAN_TIMESTAMP_MILLIS)
        || options.contains(ReadOptions.SCAN_TIMESTAMP)) {
      return "from-timestamp";
    }
    return "latest-full";
  }

  private static long requiredSnapshotId(FileStoreTable table, String mode) {
    return table
        .options()
        .getOptional(ReadOptions.SCAN_SNAPSHOT_ID)
        .orElseThrow(
            () ->
                new BasaltException(
                    String.format(
                        "Streaming read of table %s with 'scan.mode' = '%s' needs '%s' (or '%s')."
                            + " Fix: add .option(\"%s\", \"<snapshot id>\").",
                        table.name(),
                        mode,
                        ReadOptions.SCAN_SNAPSHOT_ID.key(),
                        ReadOptions.SCAN_TAG_NAME.key(),
                        ReadOptions.SCAN_SNAPSHOT_ID.key())));
  }

  /** The changes committed after the time option's instant. */
  private static StreamPosition fromTimestamp(FileStoreTable table) {
    Options options = table.options();
    Map<String, String> only = new HashMap<>();
    for (var option :
        new io.basalt.options.ConfigOption<?>[] {
          ReadOptions.SCAN_TIMESTAMP_MILLIS, ReadOptions.SCAN_TIMESTAMP
        }) {
      options.raw(option.key()).ifPresent(v -> only.put(option.key(), v));
    }
    if (only.isEmpty()) {
      throw new BasaltException(
          String.format(
              "Streaming read of table %s with 'scan.mode' = 'from-timestamp' needs '%s' or '%s'."
                  + " Fix: add .option(\"%s\", \"<epoch milliseconds>\").",
              table.name(),
              ReadOptions.SCAN_TIMESTAMP_MILLIS.key(),
              ReadOptions.SCAN_TIMESTAMP.key(),
              ReadOptions.SCAN_TIMESTAMP_MILLIS.key()));
    }
    if (table.snapshotManager().latestSnapshotId().isEmpty()) {
      return new StreamPosition(1, 0, false);
    }
    Snapshot before = table.timeTravel().fromOptions(new Options(only, table.name())).orElseThrow();
    return new StreamPosition(before.id() + 1, 0, false);
  }
}

package io.basalt.options;

/** Options of scan planning. */
public final class ReadOptions {
  private ReadOptions() {}

  public static final ConfigOption<Long> SPLIT_TARGET_SIZE =
      ConfigOption.key("source.split.target-size")
          .memoryType()
          .atLeast(1)
          .defaultValue(128L << 20)
          .description(
              "Target size of one input partition: buckets that need no merge are cut into,"
                  + " and small buckets packed together into, pieces of about this size.");

  public static final ConfigOption<Long> SPLIT_OPEN_FILE_COST =
      ConfigOption.key("source.split.open-file-cost")
          .memoryType()
          .atLeast(0)
          .defaultValue(4L << 20)
          .description(
              "The size a file counts as at least when packing input partitions, for the cost"
                  + " of opening it.");

  public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
      ConfigOption.key("scan.snapshot-id")
          .longType()
          .description("Time travel: read this snapshot instead of the latest.");

  public static final ConfigOption<String> SCAN_TAG_NAME =
      ConfigOption.key("scan.tag-name")
          .stringType()
          .description("Time travel: read the snapshot this tag references.");

  public static final ConfigOption<Long> SCAN_TIMESTAMP_MILLIS =
      ConfigOption.key("scan.timestamp-millis")
          .longType()
          .description(
              "Time travel: read the latest snapshot committed at or before this time (epoch"
                  + " milliseconds).");

  public static final ConfigOption<String> SCAN_TIMESTAMP =
      ConfigOption.key("scan.timestamp")
          .stringType()
          .description(
              "Time travel: read the latest snapshot committed at or before this local time,"
                  + " 'yyyy-MM-dd HH:mm:ss[.SSS]' in the Spark session time zone"
                  + " ('spark.sql.session.timeZone').");

  public static final ConfigOption<Long> SCAN_WATERMARK =
      ConfigOption.key("scan.watermark")
          .longType()
          .description(
              "Time travel: read the first snapshot whose watermark is at least this value.");

  public static final ConfigOption<String> BRANCH =
      ConfigOption.key("branch")
          .stringType()
          .description(
              "As a read or write option: read or write this branch of the table instead of the"
                  + " one its name selects (the branch must have the same columns).");

  public static final ConfigOption<String> SCAN_FALLBACK_BRANCH =
      ConfigOption.key("scan.fallback-branch")
          .stringType()
          .description(
              "A read of a partition that the current branch does not have reads it from this"
                  + " branch instead (both branches must have the same columns).");

  public static final ConfigOption<Boolean> SCAN_PRESERVE_DATA_GROUPING =
      ConfigOption.key("scan.preserve-data-grouping")
          .booleanType()
          .defaultValue(false)
          .description(
              "Report a fixed-bucket table's buckets to Spark (KeyGroupedPartitioning over"
                  + " bucket(N, key)) so joins and aggregations on the bucket key need no shuffle;"
                  + " needs spark.sql.sources.v2.bucketing.enabled. Off, scans pack splits by size"
                  + " and their parallelism does not follow the bucket count. Fixed when the scan"
                  + " is created.");

  /** The time-travel options; at most one may be set for a read. */
  public static final java.util.List<ConfigOption<?>> TIME_TRAVEL_OPTIONS =
      java.util.List.of(
          SCAN_SNAPSHOT_ID, SCAN_TAG_NAME, SCAN_TIMESTAMP_MILLIS, SCAN_TIMESTAMP, SCAN_WATERMARK);

  public static final ConfigOption<String> INCREMENTAL_BETWEEN =
      ConfigOption.key("incremental-between")
          .stringType()
          .description(
              "Incremental read: the changes after the start (exclusive) up to the end"
                  + " (inclusive), written '<start>,<end>'; each bound a snapshot id or a tag name"
                  + " (a tag wins over a snapshot id of the same name), e.g. '5,10' or"
                  + " 'TAG1,TAG3'.");

  public static final ConfigOption<String> INCREMENTAL_BETWEEN_TIMESTAMP =
      ConfigOption.key("incremental-between-timestamp")
          .stringType()
          .description(
              "Incremental read: the changes of the snapshots committed after the start time"
                  + " (exclusive) up to the end time (inclusive), written '<start>,<end>'; each"
                  + " bound epoch milliseconds or 'yyyy-MM-dd HH:mm:ss[.SSS]' in the Spark session"
                  + " time zone ('spark.sql.session.timeZone').");

  public static final ConfigOption<String> INCREMENTAL_TO_AUTO_TAG =
      ConfigOption.key("incremental-to-auto-tag")
          .stringType()
          .description(
              "Incremental read: the changes from the automatic tag before this one up to this"
                  + " automatic tag; empty when either tag does not exist.");

  public static final ConfigOption<String> INCREMENTAL_BETWEEN_SCAN_MODE =
      ConfigOption.key("incremental-between-scan-mode")
          .enumType("auto", "delta", "diff", "changelog")
          .defaultValue("auto")
          .description(
              "How an incremental read finds changes: 'delta' merges per key the data files the"
                  + " snapshots of the range added; 'diff' compares the merged data of the two"
                  + " ends per key; 'changelog' reads the changelog files of tables with a"
                  + " 'changelog-producer'; 'auto'"
                  + " uses changelog files when the table has a changelog producer, 'diff' for"
                  + " tag-to-tag ranges and 'delta' otherwise.");

  /** The options that select an incremental read; at most one may be set. */
  public static final java.util.List<ConfigOption<?>> INCREMENTAL_OPTIONS =
      java.util.List.of(
          INCREMENTAL_BETWEEN, INCREMENTAL_BETWEEN_TIMESTAMP, INCREMENTAL_TO_AUTO_TAG);
}

package io.basalt.options;

/** Options of scan planning. */
public final class ReadOptions {
  private ReadOptions() {}

  public static final ConfigOption<Long> SPLIT_TARGET_SIZE =
      ConfigOption.key("source.split.target-size")
          .memoryType()
          .defaultValue(128L << 20)
          .description(
              "Target size of one input partition: buckets that need no merge are cut into,"
                  + " and small buckets packed together into, pieces of about this size.");

  public static final ConfigOption<Long> SPLIT_OPEN_FILE_COST =
      ConfigOption.key("source.split.open-file-cost")
          .memoryType()
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
                  + " 'yyyy-MM-dd HH:mm:ss[.SSS]' in the JVM's default time zone (as Paimon reads"
                  + " it).");

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
}

package io.basalt.options;

/**
 * Options of partition expiration: dropping partitions whose time (read from the partition values,
 * or the partition's last update) is older than a bound. Read them through {@link
 * PartitionExpiration}.
 */
public final class PartitionOptions {
  private PartitionOptions() {}

  /** The strategy that reads the time from the partition values. */
  public static final String VALUES_TIME = "values-time";

  /** The strategy that takes the time of the partition's newest data file. */
  public static final String UPDATE_TIME = "update-time";

  public static final ConfigOption<Long> PARTITION_EXPIRATION_TIME =
      ConfigOption.key("partition.expiration-time")
          .durationType()
          .description(
              "When set, a commit drops the partitions whose time is older than this (see"
                  + " 'partition.expiration-strategy'). Unset: partitions never expire.");

  public static final ConfigOption<Long> PARTITION_EXPIRATION_CHECK_INTERVAL =
      ConfigOption.key("partition.expiration-check-interval")
          .durationType()
          .defaultValue(3_600_000L)
          .description(
              "Commits look for expired partitions at most this often (per table and process);"
                  + " '0 s' checks after every commit.");

  public static final ConfigOption<String> PARTITION_EXPIRATION_STRATEGY =
      ConfigOption.key("partition.expiration-strategy")
          .enumType(VALUES_TIME, UPDATE_TIME)
          .defaultValue(VALUES_TIME)
          .description(
              "How a partition's time is found: 'values-time' parses it from the partition values"
                  + " (see 'partition.timestamp-pattern' and 'partition.timestamp-formatter');"
                  + " 'update-time' takes the creation time of its newest data file.");

  public static final ConfigOption<String> PARTITION_TIMESTAMP_FORMATTER =
      ConfigOption.key("partition.timestamp-formatter")
          .stringType()
          .description(
              "A java.time DateTimeFormatter pattern, e.g. 'yyyyMMdd', that parses the text"
                  + " 'partition.timestamp-pattern' builds. Unset: 'yyyy-MM-dd HH:mm:ss' or"
                  + " 'yyyy-MM-dd' (one-digit months, days and hours are accepted).");

  public static final ConfigOption<String> PARTITION_TIMESTAMP_PATTERN =
      ConfigOption.key("partition.timestamp-pattern")
          .stringType()
          .description(
              "Builds the time text from partition values: each '$column' is replaced by that"
                  + " partition column's value, e.g. '$dt' or '$year-$month-$day $hour:00:00'."
                  + " Unset: the first partition column's value.");

  public static final ConfigOption<Integer> PARTITION_EXPIRATION_MAX_NUM =
      ConfigOption.key("partition.expiration-max-num")
          .intType()
          .atLeast(1)
          .defaultValue(100)
          .description("The most partitions one expiration run drops (the oldest first).");
}

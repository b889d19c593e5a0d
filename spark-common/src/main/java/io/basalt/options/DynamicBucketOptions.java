package io.basalt.options;

/**
 * Options of dynamic-bucket tables ({@code 'bucket' = '-1'} on a primary-key table, the default
 * when {@code bucket} is absent), with Paimon's keys and defaults.
 */
public final class DynamicBucketOptions {
  private DynamicBucketOptions() {}

  public static final ConfigOption<Long> TARGET_ROW_NUM =
      ConfigOption.key("dynamic-bucket.target-row-num")
          .longType()
          .defaultValue(2_000_000L)
          .description(
              "Dynamic-bucket tables: the number of keys a bucket takes before new keys go to a"
                  + " new bucket.");

  public static final ConfigOption<Integer> INITIAL_BUCKETS =
      ConfigOption.key("dynamic-bucket.initial-buckets")
          .intType()
          .description(
              "Dynamic-bucket tables: the most buckets a new partition starts with (one per"
                  + " assigner); caps the number of assigners of a write.");

  public static final ConfigOption<Integer> MAX_BUCKETS =
      ConfigOption.key("dynamic-bucket.max-buckets")
          .intType()
          .defaultValue(-1)
          .description(
              "Dynamic-bucket tables: the most buckets a partition may have; -1 means no limit."
                  + " Once reached, new keys go to the existing buckets.");

  public static final ConfigOption<Integer> ASSIGNER_PARALLELISM =
      ConfigOption.key("dynamic-bucket.assigner-parallelism")
          .intType()
          .description(
              "Dynamic-bucket tables: the number of assigners a write routes keys to (by key"
                  + " hash); each assigner owns the buckets b with b % assigners = its id."
                  + " Defaults to Spark's default parallelism, capped by dynamic-bucket.max-buckets and dynamic-bucket.initial-buckets.");
}

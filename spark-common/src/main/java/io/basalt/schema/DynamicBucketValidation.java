package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.options.ConfigOption;
import io.basalt.options.DynamicBucketOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import java.util.List;

/**
 * Checks the options of dynamic-bucket tables ({@code 'bucket' = '-1'} with a primary key): their
 * own options need such a table and positive values, and the bucket key is always the trimmed
 * primary key.
 */
final class DynamicBucketValidation {
  private static final List<ConfigOption<?>> DYNAMIC_ONLY =
      List.of(
          DynamicBucketOptions.TARGET_ROW_NUM,
          DynamicBucketOptions.INITIAL_BUCKETS,
          DynamicBucketOptions.MAX_BUCKETS,
          DynamicBucketOptions.ASSIGNER_PARALLELISM);

  private DynamicBucketValidation() {}

  static void validate(TableSchema schema, Options options, String table, int bucket) {
    boolean dynamic = schema.hasPrimaryKey() && bucket == -1;
    String bucketKey = TableOptions.BUCKET.key();
    if (!dynamic) {
      for (ConfigOption<?> option : DYNAMIC_ONLY) {
        if (options.contains(option)) {
          throw new BasaltException(
              String.format(
                  "Option '%s' = '%s' on table %s needs a dynamic-bucket table (a primary key"
                      + " and '%s' = -1), but %s. Fix: remove the option, or unset '%s'.",
                  option.key(),
                  options.toMap().get(option.key()),
                  table,
                  bucketKey,
                  schema.hasPrimaryKey()
                      ? "'" + bucketKey + "' = " + bucket
                      : table + " has no primary key",
                  bucketKey));
        }
      }
      return;
    }
    if (options.contains(TableOptions.BUCKET_KEY)) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' on table %s cannot be used with '%s' = -1 (dynamic bucket),"
                  + " which always hashes the primary key. Fix: remove '%s', or set '%s' = N"
                  + " (N >= 1).",
              TableOptions.BUCKET_KEY.key(),
              options.toMap().get(TableOptions.BUCKET_KEY.key()),
              table,
              bucketKey,
              TableOptions.BUCKET_KEY.key(),
              bucketKey));
    }
    positive(options, DynamicBucketOptions.TARGET_ROW_NUM, table);
    positive(options, DynamicBucketOptions.INITIAL_BUCKETS, table);
    positive(options, DynamicBucketOptions.ASSIGNER_PARALLELISM, table);
    int max = options.get(DynamicBucketOptions.MAX_BUCKETS);
    if (max == 0 || max < -1) {
      throw new BasaltException(
          String.format(
              "Invalid value '%s' for option '%s' on table %s: expected -1 (no limit) or a number"
                  + " >= 1. Fix: set '%s' = '-1'.",
              max,
              DynamicBucketOptions.MAX_BUCKETS.key(),
              table,
              DynamicBucketOptions.MAX_BUCKETS.key()));
    }
  }

  private static void positive(Options options, ConfigOption<? extends Number> option, String t) {
    if (options.contains(option) && options.get(option).longValue() <= 0) {
      throw new BasaltException(
          String.format(
              "Invalid value '%s' for option '%s' on table %s: expected a number >= 1.",
              options.get(option), option.key(), t));
    }
  }
}

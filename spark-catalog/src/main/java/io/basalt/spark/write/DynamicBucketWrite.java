package io.basalt.spark.write;

import io.basalt.options.DynamicBucketOptions;
import io.basalt.options.Options;
import io.basalt.table.FileStoreTable;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * Fixes the number of assigners of one write to a dynamic-bucket table, as Paimon's Spark writer
 * does: {@code dynamic-bucket.assigner-parallelism}, else Spark's default parallelism, capped by
 * {@code dynamic-bucket.max-buckets} and {@code dynamic-bucket.initial-buckets}. The write's
 * distribution routes each key to assigner {@code bucket(assigners, key)} and its tasks assign
 * buckets with the same count, so both must see the one value this puts in the table's options.
 */
final class DynamicBucketWrite {
  private DynamicBucketWrite() {}

  static boolean isDynamic(FileStoreTable table) {
    return table.hasPrimaryKey() && table.bucketCount() == -1;
  }

  /** {@code table} with the write's assigner count set; other tables unchanged. */
  static FileStoreTable withAssigners(FileStoreTable table) {
    if (!isDynamic(table)) {
      return table;
    }
    Options options = table.options();
    int assigners =
        options
            .getOptional(DynamicBucketOptions.ASSIGNER_PARALLELISM)
            .orElseGet(() -> SparkSession.active().sparkContext().defaultParallelism());
    int max = options.get(DynamicBucketOptions.MAX_BUCKETS);
    if (max > 0) {
      assigners = Math.min(assigners, max);
    }
    Integer initial = options.getOptional(DynamicBucketOptions.INITIAL_BUCKETS).orElse(null);
    if (initial != null) {
      assigners = Math.min(assigners, initial);
    }
    return table.copyWithOptions(
        Map.of(
            DynamicBucketOptions.ASSIGNER_PARALLELISM.key(),
            String.valueOf(Math.max(1, assigners))));
  }

  /** The assigner count {@link #withAssigners} set. */
  static int assigners(FileStoreTable table) {
    return table.options().get(DynamicBucketOptions.ASSIGNER_PARALLELISM);
  }
}

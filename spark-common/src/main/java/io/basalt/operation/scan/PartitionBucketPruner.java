package io.basalt.operation.scan;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.predicate.Predicate;
import io.basalt.predicate.StatsEvaluator;
import io.basalt.predicate.ValueEvaluator;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.annotation.Nullable;

/** Prunes manifests and manifest entries by partition and bucket, so that a plan only folds. */
final class PartitionBucketPruner {
  private final FileStoreTable table;
  private final ScanFilters filters;
  @Nullable private final BinaryRow partition;
  @Nullable private final Integer bucket;
  @Nullable private final Predicate bucketFilter;
  private final BucketSelection bucketSelection;
  private final StatsView partitionStats;
  private final Map<BinaryRow, Boolean> partitionMatches = new HashMap<>();
  private final Map<Integer, Boolean> bucketMatches = new HashMap<>();
  private final Set<List<Object>> prunedBuckets = new HashSet<>();

  /**
   * @param filter the scan's whole filter, which may select buckets by their bucket-key values
   * @param filters {@code filter} split by the columns its conjuncts read
   * @param partition the only partition to read, or null for all
   * @param bucket the only bucket to read, or null for all
   * @param bucketFilter a predicate over {@link TableScan#BUCKET_COLUMN}, or null for none
   */
  PartitionBucketPruner(
      FileStoreTable table,
      @Nullable Predicate filter,
      ScanFilters filters,
      @Nullable BinaryRow partition,
      @Nullable Integer bucket,
      @Nullable Predicate bucketFilter) {
    this.table = table;
    this.filters = filters;
    this.partition = partition;
    this.bucket = bucket;
    this.bucketFilter = bucketFilter;
    this.bucketSelection = BucketSelection.of(table, filter);
    this.partitionStats = new StatsView(table.partitionType());
  }

  /** How many (partition, bucket) pairs {@link #entryMatches} dropped for their bucket so far. */
  int prunedBuckets() {
    return prunedBuckets.size();
  }

  private boolean bucketMatches(int id) {
    return bucketMatches.computeIfAbsent(
        id,
        b ->
            StatsEvaluator.mayMatch(
                bucketFilter,
                name ->
                    TableScan.BUCKET_COLUMN.equals(name)
                        ? new ColumnStatistics(b, b, 0L)
                        : ColumnStatistics.UNKNOWN,
                1));
  }

  /** Whether {@code meta} may hold entries {@link #entryMatches} keeps. */
  boolean manifestMayMatch(ManifestFileMeta meta) {
    if (bucketFilter != null && meta.minBucket() != null) {
      Function<String, ColumnStatistics> range =
          name ->
              TableScan.BUCKET_COLUMN.equals(name)
                  ? new ColumnStatistics(meta.minBucket(), meta.maxBucket(), 0L)
                  : ColumnStatistics.UNKNOWN;
      if (!StatsEvaluator.mayMatch(bucketFilter, range, -1)) {
        return false;
      }
    }
    if (bucket != null
        && meta.minBucket() != null
        && (bucket < meta.minBucket() || bucket > meta.maxBucket())) {
      return false;
    }
    if (filters.partition() == null || table.partitionType().isEmpty()) {
      return true;
    }
    return StatsEvaluator.mayMatch(
        filters.partition(), partitionStats.decode(meta.partitionStats()), -1);
  }

  /** Whether the plan keeps {@code entry}: its partition and bucket pass every filter. */
  boolean entryMatches(ManifestEntry entry) {
    if (bucket != null && entry.bucket() != bucket) {
      return false;
    }
    if (bucketFilter != null && !bucketMatches(entry.bucket())) {
      prunedBuckets.add(List.of(entry.partition(), entry.bucket()));
      return false;
    }
    if (partition != null && !partition.equals(entry.partition())) {
      return false;
    }
    // exact, not may-match: Spark drops partition filters from its plan (enforcesExactly), and
    // overwrites and partition drops delete what this selects
    if (filters.partition() != null
        && !partitionMatches.computeIfAbsent(
            entry.partition(),
            p -> ValueEvaluator.test(filters.partition(), partitionStats.values(p)))) {
      return false;
    }
    if (!bucketSelection.selects(entry.bucket(), entry.totalBuckets())) {
      // no row of this bucket has a bucket-key value the filter allows
      prunedBuckets.add(List.of(entry.partition(), entry.bucket()));
      return false;
    }
    return true;
  }
}

package io.basalt.operation.scan;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestCache;
import io.basalt.manifest.ManifestEntry;
import io.basalt.predicate.Predicate;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Paimon's {@code scan.fallback-branch}: a partition the current branch has (judged by the
 * partition filter only) is read from the current branch alone; a partition only the fallback
 * branch has is read from the fallback branch. Both branches share the table's data files.
 */
final class FallbackBranchPlanner {
  private FallbackBranchPlanner() {}

  static TableScan.Plan merge(
      FileStoreTable main,
      FileStoreTable fallback,
      TableScan.Plan mainPlan,
      @Nullable Predicate filter,
      @Nullable Predicate bucketFilter,
      @Nullable ManifestCache cache) {
    Set<BinaryRow> complete = new HashSet<>();
    if (mainPlan.snapshot() != null) {
      // a partition counts as present even when the data filter skips all of its files
      Predicate partitionFilter = ScanFilters.split(filter, main.schema()).partition();
      for (ManifestEntry entry :
          new TableScan(main)
              .withFilter(partitionFilter)
              .withManifestCache(cache)
              .liveEntries(mainPlan.snapshot())) {
        complete.add(entry.partition());
      }
    }
    TableScan scan =
        new TableScan(fallback)
            .withFilter(filter)
            .withBucketFilter(bucketFilter)
            .withManifestCache(cache)
            .withoutFallback();
    fallback.timeTravelSnapshot().ifPresent(scan::withSnapshot);
    TableScan.Plan other = scan.plan();
    List<DataSplit> splits = new ArrayList<>(mainPlan.splits());
    for (DataSplit split : other.splits()) {
      if (!complete.contains(split.partition())) {
        splits.add(split);
      }
    }
    ScanMetrics metrics = mainPlan.metrics().plus(other.metrics());
    return new TableScan.Plan(mainPlan.snapshot(), splits, metrics);
  }
}

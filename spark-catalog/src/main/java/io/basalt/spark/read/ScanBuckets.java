package io.basalt.spark.read;

import io.basalt.operation.scan.BucketSelection;
import io.basalt.predicate.Predicate;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.TreeSet;
import javax.annotation.Nullable;

/** The {@code buckets=[...]} part of a scan's description: which buckets planning selected. */
final class ScanBuckets {
  private ScanBuckets() {}

  /**
   * {@code all}, or the {@code __paimon_bucket} predicate and the buckets the filter's bucket-key
   * values select out of each bucket count the planned splits were written with.
   */
  static String describe(
      FileStoreTable table,
      @Nullable Predicate filter,
      @Nullable Predicate bucketFilter,
      List<DataSplit> splits) {
    BucketSelection selection = BucketSelection.of(table, filter);
    if (selection.selectsAll()) {
      return bucketFilter == null ? "all" : bucketFilter.toString();
    }
    TreeSet<Integer> counts = new TreeSet<>();
    for (DataSplit split : splits) {
      counts.add(split.totalBuckets());
    }
    String selected = selection.describe(counts);
    return bucketFilter == null ? selected : bucketFilter + ", " + selected;
  }
}

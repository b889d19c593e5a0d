package io.basalt.spark.read;

import io.basalt.operation.scan.TableScan;
import io.basalt.table.DataSplit;
import java.util.ArrayList;
import java.util.List;

/** The splits a pushed-down LIMIT needs. */
final class ScanLimit {
  private ScanLimit() {}

  /**
   * Keeps only the splits a LIMIT of {@code limit} rows needs (negative: no limit) when every split
   * reads rows one to one from its files (no merge, no deletion vectors; the caller passes no limit
   * when a filter may drop rows), so file row counts are exact.
   */
  static TableScan.Plan keep(TableScan.Plan full, long limit) {
    if (limit < 0) {
      return full;
    }
    List<DataSplit> kept = new ArrayList<>();
    long rows = 0;
    for (DataSplit split : full.splits()) {
      if (!split.rawConvertible() || split.hasDeletionVectors()) {
        return full;
      }
      if (rows >= limit) {
        continue;
      }
      kept.add(split);
      rows += split.rowCount();
    }
    return new TableScan.Plan(full.snapshot(), kept, full.metrics());
  }
}

package io.basalt.spark.read;

import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.internal.LegacyBehaviorPolicy;

/**
 * Spark's vectorized Parquet reader that also says what the file's row-group filter skipped: the
 * row groups its statistics rule out, and every row left out by row-group, dictionary and page
 * filtering (the reader's own count of the rows it will return, against the file's).
 */
final class FilteredParquetReader extends VectorizedParquetRecordReader {
  /** Basalt writes proleptic Gregorian dates and timestamps, and never INT96. */
  private static final String NO_REBASE = LegacyBehaviorPolicy.CORRECTED().toString();

  private long fileRows = -1;
  private int rowGroupsSkipped;

  FilteredParquetReader(boolean offHeap, int batchSize) {
    super(null, NO_REBASE, "UTC", NO_REBASE, "UTC", offHeap, batchSize);
  }

  /**
   * Records the file's row count and the row groups {@code filter} (null for none) rules out by
   * statistics alone; from the footer, without reading data.
   */
  void recordFilter(ParquetMetadata footer, FilterPredicate filter) {
    long rows = 0;
    for (BlockMetaData block : footer.getBlocks()) {
      rows += block.getRowCount();
    }
    fileRows = rows;
    if (filter != null) {
      int kept =
          RowGroupFilter.filterRowGroups(
                  FilterCompat.get(filter),
                  footer.getBlocks(),
                  footer.getFileMetaData().getSchema())
              .size();
      rowGroupsSkipped = footer.getBlocks().size() - kept;
    }
  }

  int rowGroupsSkipped() {
    return rowGroupsSkipped;
  }

  /** The rows of the file this reader will not return; valid once initialized. */
  long rowsSkipped() {
    return fileRows < 0 ? 0 : Math.max(0, fileRows - totalRowCount);
  }
}

package io.basalt.rowtracking;

import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.predicate.ColumnStatistics;
import java.util.List;

/**
 * The range of row ids a data file may hold, as statistics of a {@value RowTracking#ROW_ID} column,
 * so that filters on row ids skip files. Rows without a stored id have the file's first row id plus
 * their position; stored ids are covered by the file's value statistics of that column. When
 * neither says anything, nothing is known and the file is kept.
 */
public final class RowIdRange {
  private RowIdRange() {}

  /**
   * @param fileColumns the number of table columns of the schema {@code file} was written with
   */
  public static ColumnStatistics of(DataFileMeta file, int fileColumns) {
    if (file.rowCount() == 0) {
      return new ColumnStatistics(null, null, 0L);
    }
    int stored = storedIndex(file, fileColumns);
    long storedNulls = file.rowCount(); // no stored column: every row falls back
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    if (stored >= 0) {
      SimpleStats stats = file.valueStats();
      List<Long> nullCounts = stats.nullCounts();
      Long nulls = nullCounts == null ? null : nullCounts.get(stored);
      if (nulls == null) {
        return ColumnStatistics.UNKNOWN;
      }
      storedNulls = nulls;
      if (nulls < file.rowCount()) {
        if (stats.minValues().isNullAt(stored) || stats.maxValues().isNullAt(stored)) {
          return ColumnStatistics.UNKNOWN;
        }
        min = stats.minValues().getLong(stored);
        max = stats.maxValues().getLong(stored);
      }
    }
    if (storedNulls > 0) {
      if (file.firstRowId() == null) {
        return ColumnStatistics.UNKNOWN;
      }
      min = Math.min(min, file.firstRowId());
      max = Math.max(max, file.firstRowId() + file.rowCount() - 1);
    }
    return new ColumnStatistics(min, max, 0L);
  }

  /** The index of the stored row id among {@code file}'s value statistics, or -1. */
  private static int storedIndex(DataFileMeta file, int fileColumns) {
    List<String> columns = file.valueStatsCols();
    if (columns != null) {
      return columns.indexOf(RowTracking.ROW_ID);
    }
    // statistics of every column: the tracking columns, when stored, follow the table columns
    return file.valueStats().minValues().arity() == fileColumns + 2 ? fileColumns : -1;
  }
}

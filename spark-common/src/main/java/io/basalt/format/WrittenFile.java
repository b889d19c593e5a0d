package io.basalt.format;

import java.util.List;

/**
 * What a finished Parquet data file holds.
 *
 * @param fileSize size of the file in bytes
 * @param rowCount number of rows
 * @param stats statistics of each top-level column, in file-schema order
 */
public record WrittenFile(long fileSize, long rowCount, List<ColumnStats> stats) {
  public WrittenFile {
    stats = List.copyOf(stats);
  }
}

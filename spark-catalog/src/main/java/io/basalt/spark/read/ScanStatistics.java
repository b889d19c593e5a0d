package io.basalt.spark.read;

import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.Statistics;

/** What a scan reports to Spark's planner: the bytes and rows of the files it will read. */
record ScanStatistics(long bytes, long rows) implements Statistics {
  @Override
  public OptionalLong sizeInBytes() {
    return OptionalLong.of(bytes);
  }

  @Override
  public OptionalLong numRows() {
    return OptionalLong.of(rows);
  }
}

package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Scan metric {@value #NAME}: the number of rows skipped because a deletion vector marks them
 * deleted, summed over the scan's tasks.
 */
public final class DeletedRowsSkippedMetric extends CustomSumMetric {
  public static final String NAME = "deletedRowsSkipped";

  /** Spark instantiates metrics by class name on the driver. */
  public DeletedRowsSkippedMetric() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "number of rows skipped because a deletion vector marks them deleted";
  }

  /** The task-side value of one reader. */
  static CustomTaskMetric taskValue(long value) {
    return ColumnarSplitsMetric.taskValue(NAME, value);
  }
}

package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Scan metric {@value #NAME}: the number of older row versions dropped by merges on read, summed
 * over the scan's tasks.
 */
public final class RowsMergedMetric extends CustomSumMetric {
  public static final String NAME = "rowsMerged";

  /** Spark instantiates metrics by class name on the driver. */
  public RowsMergedMetric() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "number of older row versions dropped by merges on read";
  }

  /** The task-side value of one reader. */
  static CustomTaskMetric taskValue(long value) {
    return ColumnarSplitsMetric.taskValue(NAME, value);
  }
}

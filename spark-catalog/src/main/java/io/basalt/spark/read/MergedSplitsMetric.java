package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Scan metric {@value #NAME}: the number of splits read through the merge path (merge on read),
 * summed over the scan's tasks.
 */
public final class MergedSplitsMetric extends CustomSumMetric {
  public static final String NAME = "mergedSplits";

  /** Spark instantiates metrics by class name on the driver. */
  public MergedSplitsMetric() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "number of splits read through the merge path (merge on read)";
  }

  /** The task-side value of one reader. */
  static CustomTaskMetric taskValue(long value) {
    return ColumnarSplitsMetric.taskValue(NAME, value);
  }
}

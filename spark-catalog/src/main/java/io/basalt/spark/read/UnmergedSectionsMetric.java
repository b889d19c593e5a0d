package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Scan metric {@value #NAME}: the key-range sections of merge-on-read splits that were read as
 * their files are, without merging (one sorted run whose rows the merge engine keeps as they are),
 * summed over the scan's tasks.
 */
public final class UnmergedSectionsMetric extends CustomSumMetric {
  public static final String NAME = "unmergedSections";

  /** Spark instantiates metrics by class name on the driver. */
  public UnmergedSectionsMetric() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "number of key-range sections of merged splits read without merging";
  }

  /** The task-side value of one reader. */
  static CustomTaskMetric taskValue(long value) {
    return ColumnarSplitsMetric.taskValue(NAME, value);
  }
}

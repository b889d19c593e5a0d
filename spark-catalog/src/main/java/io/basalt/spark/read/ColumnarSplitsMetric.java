package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The number of splits a scan read with Spark's vectorized Parquet reader, as columnar batches.
 * Shown in the Spark UI on the scan node; a merge-on-read split counts 0.
 */
public final class ColumnarSplitsMetric extends CustomSumMetric {
  public static final String NAME = "columnarSplits";

  /** Spark instantiates metrics by class name on the driver. */
  public ColumnarSplitsMetric() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "number of splits read as columnar batches";
  }

  /** The task-side value: the splits one reader read on the columnar path. */
  static CustomTaskMetric taskValue(long splits) {
    return taskValue(NAME, splits);
  }

  /** A task-side value of the metric called {@code name}. */
  static CustomTaskMetric taskValue(String name, long value) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long value() {
        return value;
      }
    };
  }
}

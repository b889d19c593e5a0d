package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * A scan metric summed over the scan's tasks, with a fixed name and description. Spark creates
 * metrics by class name with no arguments, so each metric stays a class of its own whose public
 * no-argument constructor passes both here.
 */
public abstract class NamedSumMetric extends CustomSumMetric {
  private final String name;
  private final String description;

  protected NamedSumMetric(String name, String description) {
    this.name = name;
    this.description = description;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }
}

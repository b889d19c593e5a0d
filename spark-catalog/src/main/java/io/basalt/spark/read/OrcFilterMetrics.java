package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Scan metrics of the pushed filters' work inside ORC files on the columnar path, summed over the
 * scan's tasks: {@value RowGroupsSkipped#NAME} and {@value RowsSkipped#NAME}.
 */
final class OrcFilterMetrics {
  private OrcFilterMetrics() {}

  /** ORC row groups (whole stripes count each of theirs) the search argument skipped. */
  public static final class RowGroupsSkipped extends CustomSumMetric {
    static final String NAME = "orcRowGroupsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowGroupsSkipped() {}

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "number of ORC row groups skipped by their statistics";
    }
  }

  /** Rows the ORC reader did not decode because their row group cannot match the filters. */
  public static final class RowsSkipped extends CustomSumMetric {
    static final String NAME = "orcRowsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowsSkipped() {}

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "number of rows skipped by ORC stripe and row-group filters";
    }
  }
}

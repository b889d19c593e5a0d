package io.basalt.spark.read;

/**
 * Scan metrics of the pushed filters' work inside ORC files on the columnar path, summed over the
 * scan's tasks: {@value RowGroupsSkipped#NAME} and {@value RowsSkipped#NAME}.
 */
final class OrcFilterMetrics {
  private OrcFilterMetrics() {}

  /** ORC row groups (whole stripes count each of theirs) the search argument skipped. */
  public static final class RowGroupsSkipped extends NamedSumMetric {
    static final String NAME = "orcRowGroupsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowGroupsSkipped() {
      super(NAME, "number of ORC row groups skipped by their statistics");
    }
  }

  /** Rows the ORC reader did not decode because their row group cannot match the filters. */
  public static final class RowsSkipped extends NamedSumMetric {
    static final String NAME = "orcRowsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowsSkipped() {
      super(NAME, "number of rows skipped by ORC stripe and row-group filters");
    }
  }
}

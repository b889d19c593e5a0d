package io.basalt.spark.read;

/**
 * Scan metrics of the pushed filters' work inside Parquet files on the columnar path, summed over
 * the scan's tasks: {@value RowGroupsSkipped#NAME} and {@value RowsSkipped#NAME}.
 */
final class ParquetFilterMetrics {
  private ParquetFilterMetrics() {}

  /** Row groups whose statistics prove that no row matches the pushed filters. */
  public static final class RowGroupsSkipped extends NamedSumMetric {
    static final String NAME = "rowGroupsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowGroupsSkipped() {
      super(NAME, "number of Parquet row groups skipped by their statistics");
    }
  }

  /**
   * Rows the Parquet reader did not decode because their row group (by statistics or dictionary) or
   * their page (by the column index) cannot match the pushed filters.
   */
  public static final class RowsSkipped extends NamedSumMetric {
    static final String NAME = "parquetRowsSkipped";

    /** Spark instantiates metrics by class name on the driver. */
    public RowsSkipped() {
      super(NAME, "number of rows skipped by Parquet row-group, dictionary and page filters");
    }
  }
}

package io.basalt.spark.read;

import io.basalt.operation.scan.TableScan;
import io.basalt.predicate.Predicate;
import io.basalt.spark.stream.StreamingReads;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A point lookup answered on the driver ({@link LocalLookups} decides when): Spark plans it as a
 * {@code LocalTableScan} of the rows this scan returns, so the query runs no job. The rows are read
 * once, when Spark first asks for them (at physical planning), from the plan made when the filters
 * were pushed, and are pinned to its snapshot.
 *
 * <p>The filters this scan evaluates itself ({@code enforced}) left Spark's plan when they were
 * pushed; Spark evaluates any other filter over the returned rows.
 */
final class LocalLookupScan implements LocalScan, SupportsReportStatistics {
  private final FileStoreTable table;
  private final StructType readSchema;
  private final TableScan.Plan plan;
  @Nullable private final Predicate filter;
  @Nullable private final Predicate enforced;
  private final Filter[] parquetFilters;
  private InternalRow[] rows;

  /**
   * @param filter the pushed filters, as planned
   * @param enforced the pushed filters this scan must enforce, in their exact form
   * @param parquetFilters the pushed filters as data source filters, for skipping row groups
   */
  LocalLookupScan(
      FileStoreTable table,
      StructType readSchema,
      TableScan.Plan plan,
      @Nullable Predicate filter,
      @Nullable Predicate enforced,
      Filter[] parquetFilters) {
    this.table = table;
    this.readSchema = readSchema;
    this.plan = plan;
    this.filter = filter;
    this.enforced = enforced;
    this.parquetFilters = parquetFilters;
  }

  @Override
  public InternalRow[] rows() {
    if (rows == null) {
      StreamingReads.checkBatch(table);
      rows = new LocalLookupRows(table, readSchema, enforced).read(plan.splits(), parquetFilters);
    }
    return rows.clone();
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  /** The planned files' bytes and rows, as the distributed scan reports them. */
  @Override
  public Statistics estimateStatistics() {
    long rowCount = 0;
    long bytes = 0;
    for (DataSplit split : plan.splits()) {
      rowCount += split.rowCount();
      bytes += split.sizeInBytes();
    }
    return new ScanStatistics(bytes, rowCount);
  }

  private int files() {
    return plan.splits().stream().mapToInt(split -> split.files().size()).sum();
  }

  @Override
  public String description() {
    return String.format(
        "BasaltLookup(%s, columns=[%s], filters=[%s], splits=%d, files=%d, on the driver)",
        table.name(),
        String.join(", ", readSchema.fieldNames()),
        filter == null ? "" : filter,
        plan.splits().size(),
        files());
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof LocalLookupScan other
            && table.name().equals(other.table.name())
            && table.paths().toString().equals(other.table.paths().toString())
            && readSchema.equals(other.readSchema)
            && Objects.equals(String.valueOf(filter), String.valueOf(other.filter))
            && Objects.equals(String.valueOf(enforced), String.valueOf(other.enforced))
            && plan.splits().equals(other.plan.splits()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(table.name(), readSchema, String.valueOf(filter));
  }
}

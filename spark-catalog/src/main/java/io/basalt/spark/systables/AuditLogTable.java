package io.basalt.spark.systables;

import io.basalt.spark.SparkTable;
import io.basalt.spark.read.ChangeRows;
import io.basalt.spark.read.SparkScanBuilder;
import io.basalt.table.FileStoreTable;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code t$audit_log}: the table's rows with a leading {@value ChangeRows#ROW_KIND} column. With an
 * incremental read option it shows every change of the range ({@code -U} and {@code -D} included);
 * without one, each key's merged row of the latest snapshot with its kind, so a delete that no
 * compaction has removed yet shows as a {@code -D} row (as in Paimon). Unlike the metadata system
 * tables it streams the table's data through a real scan.
 */
public final class AuditLogTable implements SupportsRead {
  static final String NAME = "audit_log";

  private final FileStoreTable table;

  AuditLogTable(FileStoreTable table) {
    this.table = table;
  }

  @Override
  public String name() {
    return table.name() + SystemTables.SEPARATOR + NAME;
  }

  @Override
  public StructType schema() {
    return ChangeRows.withRowKind(SparkTable.sparkSchema(table.schema()));
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ);
  }

  /** The data table's scan (its option precedence included), reading changes with row kinds. */
  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return ((SparkScanBuilder) new SparkTable(table).newScanBuilder(options)).withRowKinds();
  }
}

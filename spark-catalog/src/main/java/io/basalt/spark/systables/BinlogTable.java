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
 * {@code t$binlog}: the changes of {@link AuditLogTable t$audit_log} as Paimon's binlog shows them,
 * one row per change: the {@value ChangeRows#ROW_KIND}, then each column as an array, {@code
 * [value]} for an insert or delete and {@code [before, after]} for an update.
 */
public final class BinlogTable implements SupportsRead {
  static final String NAME = "binlog";

  private final FileStoreTable table;

  BinlogTable(FileStoreTable table) {
    this.table = table;
  }

  @Override
  public String name() {
    return table.name() + SystemTables.SEPARATOR + NAME;
  }

  @Override
  public StructType schema() {
    return ChangeRows.binlogSchema(SparkTable.sparkSchema(table.schema()));
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return ((SparkScanBuilder) new SparkTable(table).newScanBuilder(options)).withBinlog();
  }
}

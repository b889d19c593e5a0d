package io.basalt.spark.systables;

import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A read-only system table {@code <table>$<name>}: its rows are table metadata, computed from the
 * engine when a query builds its scan and handed to Spark as a {@link LocalScan} (metadata is
 * small), so SELECT, WHERE and joins work as on any table.
 */
public abstract class SystemTable implements SupportsRead {
  protected final FileStoreTable table;

  protected SystemTable(FileStoreTable table) {
    this.table = table;
  }

  /** The system table's name, such as {@code snapshots}. */
  protected abstract String systemName();

  /** The current rows, in the order of {@link #schema()}. */
  protected abstract List<InternalRow> rows();

  @Override
  public String name() {
    return table.name() + "$" + systemName();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return () -> {
      InternalRow[] rows = rows().toArray(new InternalRow[0]);
      StructType schema = schema();
      String description = name();
      return new LocalScan() {
        @Override
        public InternalRow[] rows() {
          return rows;
        }

        @Override
        public StructType readSchema() {
          return schema;
        }

        @Override
        public String description() {
          return description;
        }
      };
    };
  }
}

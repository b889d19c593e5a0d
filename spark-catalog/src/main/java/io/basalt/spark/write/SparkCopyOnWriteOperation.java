package io.basalt.spark.write;

import io.basalt.manifest.ManifestEntry;
import io.basalt.rowtracking.RowTracking;
import io.basalt.spark.read.MetadataColumns;
import io.basalt.spark.read.SparkScan;
import io.basalt.spark.read.SparkScanBuilder;
import io.basalt.table.FileStoreTable;
import io.basalt.table.RowLevelSupport;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A DELETE, UPDATE or MERGE INTO on an append table, by copy-on-write: the scan reads whole files
 * (Spark narrows it at run time to the files holding changed rows), the write gets every row of
 * those files that stays plus the new rows, and the commit replaces exactly the files read with the
 * files written, in one OVERWRITE snapshot. It fails, committing nothing, when a concurrent commit
 * removed one of the files read.
 */
public final class SparkCopyOnWriteOperation implements RowLevelOperation {
  private final FileStoreTable table;
  private final Command command;
  private SparkScan scan;

  public SparkCopyOnWriteOperation(FileStoreTable table, Command command) {
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public String description() {
    return "BasaltCopyOnWrite(" + table.name() + ", " + command + ")";
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    // here, not when the operation starts: a DELETE of whole partitions never gets this far
    RowLevelSupport.checkRewrite(table, command == Command.MERGE ? "MERGE INTO" : command.name());
    return new SparkScanBuilder(table.copyWithOptions(options.asCaseSensitiveMap()))
        .forRewrite(built -> this.scan = built);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new WriteBuilder() {
      @Override
      public Write build() {
        return new SparkWrite(table, info, false, false, null, () -> replacedFiles());
      }
    };
  }

  private List<ManifestEntry> replacedFiles() {
    if (scan == null) {
      throw new IllegalStateException(
          "Copy-on-write " + command + " of table " + table.name() + " committed before its scan");
    }
    return scan.files();
  }

  /**
   * The file path lets Spark find, at run time, the files holding changed rows. A row-tracking
   * table also reads each row's id and sequence number, which the write stores: kept rows keep
   * both, changed rows keep their id (Spark nulls the sequence number, see {@link
   * MetadataColumns}), inserted rows get new ones at commit.
   */
  @Override
  public NamedReference[] requiredMetadataAttributes() {
    if (RowTracking.enabled(table.options())) {
      return new NamedReference[] {
        Expressions.column(MetadataColumns.FILE_PATH),
        Expressions.column(MetadataColumns.ROW_ID),
        Expressions.column(MetadataColumns.SEQUENCE_NUMBER)
      };
    }
    return new NamedReference[] {Expressions.column(MetadataColumns.FILE_PATH)};
  }
}

package io.basalt.spark.write;

import io.basalt.spark.read.MetadataColumns;
import io.basalt.spark.read.SparkScanBuilder;
import io.basalt.table.FileStoreTable;
import io.basalt.table.RowLevelSupport;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A DELETE, UPDATE or MERGE INTO on a primary-key table, written as a delta: the row id is the
 * primary key (partition columns included), and each changed row becomes one key-value row of the
 * bucket's LSM: -D for a delete, +U with the whole new row for an update, +I for an insert. Nothing
 * is read back or rewritten; merging applies the changes on read and in compaction.
 *
 * <p>DELETE and MERGE INTO also read {@value MetadataColumns#ROW}, so that a -D row carries the
 * deleted row's values (its sequence fields decide whether the delete is newer than the row).
 */
public final class SparkDeltaOperation implements SupportsDelta {
  private final FileStoreTable table;
  private final Command command;

  public SparkDeltaOperation(FileStoreTable table, Command command) {
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public String description() {
    return "BasaltDelta(" + table.name() + ", " + command + ")";
  }

  /**
   * The scan of the rows to change. A DELETE that reaches this point removes rows by key (a delete
   * of whole partitions never gets here), so this is where a table that cannot take it fails it.
   */
  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    if (command == Command.DELETE) {
      RowLevelSupport.checkDelete(table);
    }
    return new SparkScanBuilder(table.copyWithOptions(options.asCaseSensitiveMap()))
        .forRowLevelOperation();
  }

  @Override
  public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new DeltaWriteBuilder() {
      @Override
      public DeltaWrite build() {
        return new SparkDeltaWrite(table, info, command);
      }
    };
  }

  @Override
  public NamedReference[] rowId() {
    return table.schema().primaryKeys().stream()
        .map(Expressions::column)
        .toArray(NamedReference[]::new);
  }

  @Override
  public NamedReference[] requiredMetadataAttributes() {
    if (deletesFromFiles(table, command)) {
      // the bucket of each deleted key, whose files lose its rows
      return KeyFileDeleteRows.metadataColumns(table);
    }
    // an UPDATE reads the old row only when it writes it as -U (an input changelog) or must check
    // that it keeps its partition (a cross-partition upsert table)
    return command == Command.UPDATE
            && !RowLevelSupport.writesUpdateBefore(table)
            && !table.schema().crossPartitionUpsert()
        ? new NamedReference[0]
        : new NamedReference[] {Expressions.column(MetadataColumns.ROW)};
  }

  @Override
  public boolean representUpdateAsDeleteAndInsert() {
    return false;
  }

  /** Whether {@code column} is a partition column the key of a cross-partition table leaves out. */
  public boolean movesPartition(String column) {
    return table.schema().crossPartitionUpsert()
        && table.schema().partitionKeys().contains(column)
        && !table.schema().primaryKeys().contains(column);
  }

  /**
   * Whether a MERGE INTO that inserts unmatched rows may not read target column {@code column} in
   * its ON condition: any column but the primary key of a cross-partition upsert table.
   */
  public boolean insertNeedsKeyOnly(String column) {
    return table.schema().crossPartitionUpsert() && !table.schema().primaryKeys().contains(column);
  }

  public java.util.List<String> primaryKeys() {
    return table.schema().primaryKeys();
  }

  /**
   * Whether {@code command} on {@code table} is a DELETE that removes rows from the files holding
   * them (see {@link RowLevelSupport#deletesFromFiles}) rather than writing -D rows.
   */
  static boolean deletesFromFiles(FileStoreTable table, Command command) {
    return command == Command.DELETE && RowLevelSupport.deletesFromFiles(table);
  }

  /** The operation's command, as SQL names it in messages. */
  static String statement(RowLevelOperation.Command command) {
    return switch (command) {
      case DELETE -> "DELETE";
      case UPDATE -> "UPDATE";
      case MERGE -> "MERGE INTO";
    };
  }
}

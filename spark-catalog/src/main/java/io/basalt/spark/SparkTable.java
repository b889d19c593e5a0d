package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.read.MetadataColumns;
import io.basalt.spark.read.SparkScanBuilder;
import io.basalt.spark.write.PrimaryKeyWriteBuilder;
import io.basalt.spark.write.SparkCopyOnWriteOperation;
import io.basalt.spark.write.SparkDeltaOperation;
import io.basalt.spark.write.SparkWriteBuilder;
import io.basalt.table.FileStoreTable;
import io.basalt.table.RowLevelSupport;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsDeleteV2;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.constraints.Constraint;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Basalt table as Spark sees it: schema, partitioning, properties, metadata columns (see {@link
 * MetadataColumns}), reads and writes. Row-level DELETE, UPDATE and MERGE INTO are deltas on
 * primary-key tables ({@link SparkDeltaOperation}) and file rewrites on append tables ({@link
 * SparkCopyOnWriteOperation}); a DELETE whose condition selects whole partitions drops their files
 * instead ({@link #deleteWhere}). Partition commands are {@link SparkPartitionManagement}'s.
 */
public class SparkTable
    implements SupportsRead,
        SupportsWrite,
        SupportsMetadataColumns,
        SupportsRowLevelOperations,
        SupportsDeleteV2,
        SparkPartitionManagement {
  static final Set<TableCapability> CAPABILITIES =
      EnumSet.of(
          TableCapability.BATCH_READ,
          TableCapability.BATCH_WRITE,
          TableCapability.OVERWRITE_BY_FILTER,
          TableCapability.OVERWRITE_DYNAMIC,
          TableCapability.TRUNCATE,
          TableCapability.STREAMING_WRITE,
          TableCapability.MICRO_BATCH_READ,
          // MERGE INTO adds source columns through alterTable when write.merge-schema is on
          TableCapability.AUTOMATIC_SCHEMA_EVOLUTION);

  private final FileStoreTable table;

  public SparkTable(FileStoreTable table) {
    this.table = table;
  }

  @Override
  public FileStoreTable fileStoreTable() {
    return table;
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public StructType schema() {
    return sparkSchema(table.schema());
  }

  /** The table's columns without Basalt's field-id metadata (comments are kept). */
  public static StructType sparkSchema(TableSchema schema) {
    StructField[] fields = new StructField[schema.fields().size()];
    for (int i = 0; i < fields.length; i++) {
      DataField field = schema.fields().get(i);
      MetadataBuilder metadata = new MetadataBuilder();
      if (field.description() != null) {
        metadata.putString("comment", field.description());
      }
      if (field.defaultValue() != null) {
        // Spark's keys: INSERT fills the column from it; no row predates a default (see ALTER)
        metadata.putString(DataField.DEFAULT_KEY, field.defaultValue());
        metadata.putString(DataField.EXISTS_DEFAULT_KEY, field.defaultValue());
      }
      fields[i] = new StructField(field.name(), field.type(), field.nullable(), metadata.build());
    }
    return new StructType(fields);
  }

  @Override
  public MetadataColumn[] metadataColumns() {
    return MetadataColumns.offered(table);
  }

  /** The primary key as a PRIMARY KEY constraint, which DESCRIBE and SHOW CREATE TABLE show. */
  @Override
  public Constraint[] constraints() {
    return TableConstraints.of(table.name(), table.schema());
  }

  @Override
  public Transform[] partitioning() {
    return table.schema().partitionKeys().stream()
        .map(Expressions::identity)
        .toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    Map<String, String> properties = new HashMap<>(table.schema().options());
    if (table.hasPrimaryKey()) {
      properties.put(
          TableOptions.PRIMARY_KEY.key(), String.join(",", table.schema().primaryKeys()));
    }
    properties.put("provider", "paimon");
    if (table.schema().comment() != null) {
      properties.put("comment", table.schema().comment());
    }
    properties.put("location", table.paths().toString());
    return properties;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    ReadOptionCheck.check(table.name(), options);
    return new SparkScanBuilder(SessionOptions.apply(table, options));
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    table.checkWritable();
    FileStoreTable target = SessionOptions.apply(table, info.options());
    return target.hasPrimaryKey()
        ? new PrimaryKeyWriteBuilder(target, info)
        : new SparkWriteBuilder(target, info);
  }

  /**
   * Starts a row-level operation. UPDATE and MERGE INTO on a merge engine that cannot take whole
   * new rows fail here, during analysis; a DELETE that cannot remove rows by key fails when its
   * scan is planned, after Spark had the chance to turn it into a partition drop.
   */
  @Override
  public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
    table.checkWritable();
    FileStoreTable target = SessionOptions.apply(table, info.options());
    RowLevelOperation.Command command = info.command();
    if (command != RowLevelOperation.Command.DELETE) {
      RowLevelSupport.checkUpdate(
          target, command == RowLevelOperation.Command.UPDATE ? "UPDATE" : "MERGE INTO");
    }
    return () ->
        target.hasPrimaryKey()
            ? new SparkDeltaOperation(target, command)
            : new SparkCopyOnWriteOperation(target, command);
  }

  /** Whether a DELETE with these conditions removes whole partitions: then no row is read. */
  @Override
  public boolean canDeleteWhere(Predicate[] predicates) {
    return SparkWriteBuilder.partitionFilter(table, predicates).isPresent();
  }

  /** Drops the files of the partitions {@code predicates} select, in one OVERWRITE snapshot. */
  @Override
  public void deleteWhere(Predicate[] predicates) {
    io.basalt.predicate.Predicate filter =
        SparkWriteBuilder.partitionFilter(table, predicates)
            .orElseThrow(
                () ->
                    new BasaltException(
                        "Table "
                            + table.name()
                            + ": a DELETE without reading rows can only remove whole partitions;"
                            + " the condition must use partition columns only"))
            .orElse(null);
    table
        .newCommit(UUID.randomUUID().toString())
        .dropPartitions(filter, Snapshot.BATCH_COMMIT_IDENTIFIER);
  }

  @Override
  public String toString() {
    return "SparkTable(" + table.name() + ")";
  }
}

package io.basalt.spark;

import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.spark.read.MetadataColumns;
import io.basalt.spark.read.SparkScanBuilder;
import io.basalt.spark.write.SparkWriteBuilder;
import io.basalt.table.FileStoreTable;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Basalt table as Spark sees it: schema, partitioning, properties, metadata columns (see {@link
 * MetadataColumns}), reads and writes.
 */
public class SparkTable implements SupportsRead, SupportsWrite, SupportsMetadataColumns {
  private static final Set<TableCapability> CAPABILITIES =
      EnumSet.of(
          TableCapability.BATCH_READ,
          TableCapability.BATCH_WRITE,
          TableCapability.OVERWRITE_BY_FILTER,
          TableCapability.OVERWRITE_DYNAMIC,
          TableCapability.TRUNCATE);

  private final FileStoreTable table;

  public SparkTable(FileStoreTable table) {
    this.table = table;
  }

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
      Metadata metadata =
          field.description() == null
              ? Metadata.empty()
              : new MetadataBuilder().putString("comment", field.description()).build();
      fields[i] = new StructField(field.name(), field.type(), field.nullable(), metadata);
    }
    return new StructType(fields);
  }

  @Override
  public MetadataColumn[] metadataColumns() {
    return MetadataColumns.offered(table);
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
    return new SparkScanBuilder(SessionOptions.apply(table, options));
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new SparkWriteBuilder(SessionOptions.apply(table, info.options()), info);
  }

  @Override
  public String toString() {
    return "SparkTable(" + table.name() + ")";
  }
}

package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.json;
import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.schema.SchemaParser;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code t$schemas}: one row per schema file, oldest first; fields, keys and options as JSON in the
 * schema file's own notation.
 */
final class SchemasTable extends SystemTable {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final StructType SCHEMA =
      new StructType()
          .add("schema_id", DataTypes.LongType, false)
          .add("fields", DataTypes.StringType, false)
          .add("partition_keys", DataTypes.StringType, false)
          .add("primary_keys", DataTypes.StringType, false)
          .add("options", DataTypes.StringType, false)
          .add("comment", DataTypes.StringType)
          .add("update_time", DataTypes.TimestampType, false);

  SchemasTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "schemas";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    List<InternalRow> rows = new ArrayList<>();
    long latest = table.schemaManager().latest().map(TableSchema::id).orElse(-1L);
    for (long id = 0; id <= latest; id++) {
      if (table.fileIO().exists(table.paths().schemaFile(id))) {
        rows.add(row(table.schemaManager().schema(id)));
      }
    }
    return rows;
  }

  private static InternalRow row(TableSchema schema) {
    return new GenericInternalRow(
        new Object[] {
          schema.id(),
          fieldsJson(schema),
          json(schema.partitionKeys()),
          json(schema.primaryKeys()),
          json(new TreeMap<>(schema.options())),
          str(schema.comment()),
          timestamp(schema.timeMillis())
        });
  }

  private static UTF8String fieldsJson(TableSchema schema) {
    try {
      return UTF8String.fromString(
          MAPPER.writeValueAsString(MAPPER.readTree(SchemaParser.toJson(schema)).get("fields")));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render the fields of schema " + schema.id(), e);
    }
  }
}

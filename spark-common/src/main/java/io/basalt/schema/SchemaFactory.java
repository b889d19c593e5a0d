package io.basalt.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds the first {@link TableSchema} of a new table from a Spark schema, assigning field ids as
 * Paimon does (format-notes.md section 2): top-level columns and nested ROW fields are numbered
 * depth-first in declaration order, a ROW column takes its own id before its fields, and ARRAY and
 * MAP wrappers take none.
 */
public final class SchemaFactory {
  private SchemaFactory() {}

  /**
   * A schema with id {@code id} for {@code sparkSchema}. Primary-key columns become NOT NULL; Spark
   * column comments (metadata {@code "comment"}) become descriptions. Nested struct fields carry
   * their ids (and comments) in their metadata; other metadata is dropped.
   *
   * @throws IllegalArgumentException when a partition or primary key names no column
   */
  public static TableSchema create(
      long id,
      StructType sparkSchema,
      List<String> partitionKeys,
      List<String> primaryKeys,
      Map<String, String> options,
      @Nullable String comment) {
    Set<String> names = new HashSet<>(List.of(sparkSchema.fieldNames()));
    checkColumns("Partition", partitionKeys, names, sparkSchema);
    checkColumns("Primary key", primaryKeys, names, sparkSchema);
    int[] nextId = {0};
    List<DataField> fields = new ArrayList<>();
    for (StructField field : sparkSchema.fields()) {
      int fieldId = nextId[0]++;
      DataType type = assignIds(field.dataType(), nextId);
      boolean nullable = field.nullable() && !primaryKeys.contains(field.name());
      Metadata metadata = field.metadata();
      fields.add(
          new DataField(fieldId, field.name(), type, nullable, comment(metadata))
              .withDefaultValue(
                  metadata.contains(DataField.DEFAULT_KEY)
                      ? metadata.getString(DataField.DEFAULT_KEY)
                      : null));
    }
    return new TableSchema(
        TableSchema.CURRENT_VERSION,
        id,
        fields,
        nextId[0] - 1,
        partitionKeys,
        primaryKeys,
        options,
        comment,
        System.currentTimeMillis());
  }

  /** {@code type} with fresh ids for its nested struct fields, taken from {@code nextId}. */
  static DataType assignIds(DataType type, int[] nextId) {
    if (type instanceof StructType struct) {
      StructField[] fields = new StructField[struct.fields().length];
      for (int i = 0; i < fields.length; i++) {
        StructField field = struct.fields()[i];
        MetadataBuilder metadata =
            new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, nextId[0]++);
        String fieldComment = comment(field.metadata());
        if (fieldComment != null) {
          metadata.putString(TypeJson.COMMENT_KEY, fieldComment);
        }
        DataType fieldType = assignIds(field.dataType(), nextId);
        fields[i] = new StructField(field.name(), fieldType, field.nullable(), metadata.build());
      }
      return new StructType(fields);
    } else if (type instanceof ArrayType array) {
      return DataTypes.createArrayType(
          assignIds(array.elementType(), nextId), array.containsNull());
    } else if (type instanceof MapType map) {
      DataType key = assignIds(map.keyType(), nextId);
      DataType value = assignIds(map.valueType(), nextId);
      return DataTypes.createMapType(key, value, map.valueContainsNull());
    }
    return type;
  }

  private static void checkColumns(
      String what, List<String> keys, Set<String> names, StructType schema) {
    for (String key : keys) {
      if (!names.contains(key)) {
        throw new IllegalArgumentException(
            String.format(
                "%s column %s does not exist in schema %s",
                what, key, List.of(schema.fieldNames())));
      }
    }
  }

  @Nullable
  private static String comment(Metadata metadata) {
    return metadata.contains(TypeJson.COMMENT_KEY)
        ? metadata.getString(TypeJson.COMMENT_KEY)
        : null;
  }
}

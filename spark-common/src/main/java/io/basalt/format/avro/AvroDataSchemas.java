package io.basalt.format.avro;

import io.basalt.data.TimestampPrecision;
import io.basalt.schema.DataField;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/**
 * Maps a data file's Spark schema to the Avro schema Paimon writes for it (format-notes.md 4.6):
 * the top-level record {@code org.apache.paimon.avro.generated.record}, nested records named after
 * their path, nullable values as the union {@code ["null", T]} with null first. A map whose key is
 * not a string is an array of {@code {key, value}} records marked with logical type {@code map}.
 * Basalt also puts each field's id in a {@code field-id} property; Paimon ignores it and Basalt's
 * reader uses it to follow renamed columns.
 */
public final class AvroDataSchemas {
  /** The name of the top-level record, as Paimon's Avro writer names it. */
  public static final String ROW_NAME = "org.apache.paimon.avro.generated.record";

  /** The field property carrying a Paimon field id. */
  public static final String FIELD_ID_PROP = "field-id";

  /** The logical type that marks an array of key/value records as a map. */
  public static final String MAP_LOGICAL_TYPE = "map";

  private AvroDataSchemas() {}

  /**
   * The Avro schema of rows of {@code schema}.
   *
   * @throws IllegalArgumentException naming the column when a type has no Avro form in Paimon
   *     (timestamps with more than 6 fractional digits, variants)
   */
  public static Schema toAvro(StructType schema) {
    return record(schema, ROW_NAME);
  }

  private static Schema record(StructType struct, String name) {
    List<Schema.Field> fields = new ArrayList<>();
    for (StructField field : struct.fields()) {
      Schema type =
          nullable(convert(field.dataType(), field, name + "_" + field.name()), field.nullable());
      Schema.Field avroField =
          new Schema.Field(
              field.name(), type, null, field.nullable() ? Schema.Field.NULL_DEFAULT_VALUE : null);
      if (field.metadata().contains(DataField.FIELD_ID_KEY)) {
        avroField.addProp(FIELD_ID_PROP, (int) field.metadata().getLong(DataField.FIELD_ID_KEY));
      }
      fields.add(avroField);
    }
    return Schema.createRecord(name, null, null, false, fields);
  }

  private static Schema nullable(Schema schema, boolean nullable) {
    return nullable ? Schema.createUnion(Schema.create(Schema.Type.NULL), schema) : schema;
  }

  private static Schema convert(DataType type, StructField owner, String name) {
    if (type instanceof BooleanType) {
      return Schema.create(Schema.Type.BOOLEAN);
    } else if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType) {
      return Schema.create(Schema.Type.INT);
    } else if (type instanceof LongType) {
      return Schema.create(Schema.Type.LONG);
    } else if (type instanceof FloatType) {
      return Schema.create(Schema.Type.FLOAT);
    } else if (type instanceof DoubleType) {
      return Schema.create(Schema.Type.DOUBLE);
    } else if (type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType) {
      return Schema.create(Schema.Type.STRING);
    } else if (type instanceof BinaryType) {
      return Schema.create(Schema.Type.BYTES);
    } else if (type instanceof DecimalType decimal) {
      return LogicalTypes.decimal(decimal.precision(), decimal.scale())
          .addToSchema(Schema.create(Schema.Type.BYTES));
    } else if (type instanceof DateType) {
      return LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return timestamp(type instanceof TimestampType, owner);
    } else if (type instanceof StructType struct) {
      return record(struct, name);
    } else if (type instanceof ArrayType array) {
      return Schema.createArray(
          nullable(convert(array.elementType(), owner, name), array.containsNull()));
    } else if (type instanceof MapType map) {
      return map(map, owner, name);
    }
    throw new IllegalArgumentException(
        String.format(
            "Column %s has type %s, which Paimon's Avro data files cannot hold. Fix: use"
                + " 'file.format' = 'parquet' for this table.",
            owner.name(), type.simpleString()));
  }

  private static Schema timestamp(boolean localZoned, StructField owner) {
    int precision = TimestampPrecision.of(owner);
    if (precision > TimestampPrecision.DEFAULT) {
      throw new IllegalArgumentException(
          String.format(
              "Column %s is a timestamp of precision %s; Avro data files hold at most 6 fractional"
                  + " digits, as in Paimon. Fix: use 'file.format' = 'parquet' or 'orc'.",
              owner.name(), precision));
    }
    boolean millis = precision <= TimestampPrecision.MAX_COMPACT;
    LogicalType logical;
    if (localZoned) {
      logical = millis ? LogicalTypes.localTimestampMillis() : LogicalTypes.localTimestampMicros();
    } else {
      logical = millis ? LogicalTypes.timestampMillis() : LogicalTypes.timestampMicros();
    }
    return logical.addToSchema(Schema.create(Schema.Type.LONG));
  }

  private static Schema map(MapType map, StructField owner, String name) {
    Schema value = nullable(convert(map.valueType(), owner, name), map.valueContainsNull());
    DataType key = map.keyType();
    if (!needsArrayMap(map)) {
      return Schema.createMap(value);
    }
    List<Schema.Field> fields = new ArrayList<>();
    fields.add(new Schema.Field("key", convert(key, owner, name + "_key"), null, null));
    fields.add(
        new Schema.Field(
            "value",
            nullable(convert(map.valueType(), owner, name + "_value"), map.valueContainsNull()),
            null,
            map.valueContainsNull() ? Schema.Field.NULL_DEFAULT_VALUE : null));
    Schema entries = Schema.createArray(Schema.createRecord(name, null, null, false, fields));
    entries.addProp("logicalType", MAP_LOGICAL_TYPE);
    return entries;
  }

  /** Whether Paimon writes {@code map} as an array of key/value records (non-string keys). */
  static boolean needsArrayMap(MapType map) {
    DataType key = map.keyType();
    return !(key instanceof StringType || key instanceof CharType || key instanceof VarcharType);
  }

  /** Whether {@code schema} is Paimon's array-of-records form of a map. */
  static boolean isArrayMap(Schema schema) {
    return schema.getType() == Schema.Type.ARRAY
        && MAP_LOGICAL_TYPE.equals(schema.getProp("logicalType"));
  }
}

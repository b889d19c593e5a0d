package io.basalt.format;

import io.basalt.data.TimestampPrecision;
import io.basalt.schema.DataField;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;
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
 * Maps a file schema (a Spark {@link StructType} whose fields carry their Paimon field ids in
 * metadata {@link DataField#FIELD_ID_KEY}) to the Parquet schema Paimon writes (format-notes.md
 * section 6.4).
 *
 * <p>Every Parquet field carries a field id. Array elements and map keys and values, which have no
 * Paimon id, get ids derived from the id of the enclosing ARRAY or MAP column and their nesting
 * depth below it (1 for the first level): element and value {@code 536870911 + id * 1024 + depth},
 * key {@code 536870911 - id * 1024 - depth}. Fields of a nested ROW use their own ids and restart
 * the depth.
 */
public final class ParquetSchemas {
  /** The name of the Parquet message, as Paimon writes it. */
  public static final String MESSAGE_NAME = "paimon_schema";

  static final String LIST_GROUP = "list";
  static final String ELEMENT = "element";
  static final String KEY_VALUE_GROUP = "key_value";
  static final String KEY = "key";
  static final String VALUE = "value";

  private static final int NESTED_ID_BASE = Integer.MAX_VALUE / 4;
  private static final int NESTED_ID_STRIDE = 1024;

  private ParquetSchemas() {}

  /**
   * The Parquet schema for {@code fileSchema}.
   *
   * @throws IllegalArgumentException when a field has no id or a type has no Parquet mapping
   */
  public static MessageType toMessageType(StructType fileSchema) {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (StructField field : fileSchema.fields()) {
      builder.addField(toType(field));
    }
    return builder.named(MESSAGE_NAME);
  }

  /** The id of an array element (or map value) below the column {@code fieldId}. */
  public static int elementId(int fieldId, int depth) {
    return NESTED_ID_BASE + fieldId * NESTED_ID_STRIDE + depth;
  }

  /** The id of a map key below the column {@code fieldId}. */
  public static int keyId(int fieldId, int depth) {
    return NESTED_ID_BASE - fieldId * NESTED_ID_STRIDE - depth;
  }

  private static Type toType(StructField field) {
    int id = DataField.fieldId(field);
    if (writesMillis(field)) {
      boolean utc = field.dataType() instanceof TimestampType;
      Repetition repetition = field.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
      return int64(
          repetition, LogicalTypeAnnotation.timestampType(utc, TimeUnit.MILLIS), id, field.name());
    }
    if (writesInt96(field)) {
      Repetition repetition = field.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
      return Types.primitive(PrimitiveTypeName.INT96, repetition).id(id).named(field.name());
    }
    return convert(field.name(), field.dataType(), field.nullable(), id, id, 0);
  }

  /**
   * Whether column {@code field} is a timestamp of precision 3 or less, which Paimon's Parquet
   * writer stores as int64 TIMESTAMP(MILLIS) and its reader expects so; wider ones are MICROS.
   */
  static boolean writesMillis(StructField field) {
    return (field.dataType() instanceof TimestampType
            || field.dataType() instanceof TimestampNTZType)
        && TimestampPrecision.of(field) <= TimestampPrecision.MAX_COMPACT;
  }

  /**
   * Whether column {@code field} is a timestamp of precision 7 to 9, which Paimon's Parquet writer
   * stores as INT96 (Julian day and nanosecond of the day) and its reader expects so.
   */
  static boolean writesInt96(StructField field) {
    return (field.dataType() instanceof TimestampType
            || field.dataType() instanceof TimestampNTZType)
        && TimestampPrecision.of(field) > TimestampPrecision.DEFAULT;
  }

  /**
   * Converts one type. {@code id} is the Parquet id of this field; {@code ownerId} and {@code
   * depth} locate it below the nearest column with a Paimon id, for deriving nested ids.
   */
  private static Type convert(
      String name, DataType type, boolean nullable, int id, int ownerId, int depth) {
    Repetition repetition = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
    if (type instanceof StructType struct) {
      Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
      for (StructField nested : struct.fields()) {
        group.addField(toType(nested));
      }
      return group.id(id).named(name);
    } else if (type instanceof ArrayType array) {
      int elementDepth = depth + 1;
      Type element =
          convert(
              ELEMENT,
              array.elementType(),
              array.containsNull(),
              elementId(ownerId, elementDepth),
              ownerId,
              elementDepth);
      return Types.buildGroup(repetition)
          .as(LogicalTypeAnnotation.listType())
          .addField(Types.repeatedGroup().addField(element).named(LIST_GROUP))
          .id(id)
          .named(name);
    } else if (type instanceof MapType map) {
      int nestedDepth = depth + 1;
      Type key =
          convert(KEY, map.keyType(), false, keyId(ownerId, nestedDepth), ownerId, nestedDepth);
      Type value =
          convert(
              VALUE,
              map.valueType(),
              map.valueContainsNull(),
              elementId(ownerId, nestedDepth),
              ownerId,
              nestedDepth);
      return Types.buildGroup(repetition)
          .as(LogicalTypeAnnotation.mapType())
          .addField(Types.repeatedGroup().addField(key).addField(value).named(KEY_VALUE_GROUP))
          .id(id)
          .named(name);
    }
    return primitive(name, type, repetition, id);
  }

  private static Type primitive(String name, DataType type, Repetition repetition, int id) {
    if (type instanceof BooleanType) {
      return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).id(id).named(name);
    } else if (type instanceof ByteType) {
      return int32(repetition, LogicalTypeAnnotation.intType(8, true), id, name);
    } else if (type instanceof ShortType) {
      return int32(repetition, LogicalTypeAnnotation.intType(16, true), id, name);
    } else if (type instanceof IntegerType) {
      return int32(repetition, null, id, name);
    } else if (type instanceof DateType) {
      return int32(repetition, LogicalTypeAnnotation.dateType(), id, name);
    } else if (type instanceof LongType) {
      return int64(repetition, null, id, name);
    } else if (type instanceof TimestampType) {
      return int64(
          repetition, LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS), id, name);
    } else if (type instanceof TimestampNTZType) {
      return int64(
          repetition, LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS), id, name);
    } else if (type instanceof FloatType) {
      return Types.primitive(PrimitiveTypeName.FLOAT, repetition).id(id).named(name);
    } else if (type instanceof DoubleType) {
      return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).id(id).named(name);
    } else if (type instanceof DecimalType decimal) {
      return decimal(decimal, repetition, id, name);
    } else if (type instanceof StringType
        || type instanceof VarcharType
        || type instanceof CharType) {
      return Types.primitive(PrimitiveTypeName.BINARY, repetition)
          .as(LogicalTypeAnnotation.stringType())
          .id(id)
          .named(name);
    } else if (type instanceof BinaryType) {
      return Types.primitive(PrimitiveTypeName.BINARY, repetition).id(id).named(name);
    }
    throw new IllegalArgumentException(
        "Column " + name + " has type " + type.catalogString() + ", which has no Parquet mapping");
  }

  private static Type decimal(DecimalType decimal, Repetition repetition, int id, String name) {
    LogicalTypeAnnotation annotation =
        LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision());
    if (decimal.precision() <= 9) {
      return int32(repetition, annotation, id, name);
    } else if (decimal.precision() <= 18) {
      return int64(repetition, annotation, id, name);
    }
    return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
        .length(decimalBytes(decimal.precision()))
        .as(annotation)
        .id(id)
        .named(name);
  }

  /** The fewest bytes whose two's complement holds every unscaled value of {@code precision}. */
  static int decimalBytes(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }

  private static Type int32(
      Repetition repetition, LogicalTypeAnnotation annotation, int id, String name) {
    return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).id(id).named(name);
  }

  private static Type int64(
      Repetition repetition, LogicalTypeAnnotation annotation, int id, String name) {
    return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).id(id).named(name);
  }
}

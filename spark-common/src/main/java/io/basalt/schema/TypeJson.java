package io.basalt.schema;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.basalt.data.TimestampPrecision;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/**
 * Encodes Spark types as Paimon schema-file type JSON and back (format-notes.md sections 2 and
 * 2.1). Atomic types are strings such as {@code "DECIMAL(10, 2) NOT NULL"}; ARRAY, MAP and ROW are
 * objects. Nested ROW fields keep their field ids in the {@link StructField} metadata under {@link
 * DataField#FIELD_ID_KEY} and their descriptions under {@code "comment"}.
 *
 * <p>Parse errors are {@link IllegalArgumentException}s naming the column; the schema parser adds
 * the file name.
 */
final class TypeJson {
  static final String COMMENT_KEY = "comment";
  private static final String NOT_NULL = " NOT NULL";

  /** Paimon's type of blob columns' values, read as BINARY. */
  private static final String BLOB = "BLOB";

  private static final int MAX_VARCHAR_LENGTH = Integer.MAX_VALUE;
  private static final Pattern ATOMIC =
      Pattern.compile(
          "([A-Z_]+(?: [A-Z_]+)*?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?(.*)");

  private TypeJson() {}

  /** A parsed type with the nullability and, for a timestamp, the precision its JSON carried. */
  record Parsed(DataType type, boolean nullable, int timestampPrecision) {
    Parsed(DataType type, boolean nullable) {
      this(type, nullable, TimestampPrecision.DEFAULT);
    }
  }

  /** Writes {@code type} with nullability {@code nullable} as a type JSON value. */
  static void write(JsonGenerator gen, DataType type, boolean nullable) throws IOException {
    String suffix = nullable ? "" : NOT_NULL;
    if (type instanceof ArrayType array) {
      gen.writeStartObject();
      gen.writeStringField("type", "ARRAY" + suffix);
      gen.writeFieldName("element");
      write(gen, array.elementType(), array.containsNull());
      gen.writeEndObject();
    } else if (type instanceof MapType map) {
      gen.writeStartObject();
      gen.writeStringField("type", "MAP" + suffix);
      gen.writeFieldName("key");
      write(gen, map.keyType(), false);
      gen.writeFieldName("value");
      write(gen, map.valueType(), map.valueContainsNull());
      gen.writeEndObject();
    } else if (type instanceof StructType struct) {
      gen.writeStartObject();
      gen.writeStringField("type", "ROW" + suffix);
      gen.writeArrayFieldStart("fields");
      for (StructField field : struct.fields()) {
        writeField(
            gen, nestedId(field), field.name(), field.dataType(), field.nullable(), comment(field));
      }
      gen.writeEndArray();
      gen.writeEndObject();
    } else {
      gen.writeString(atomicName(type) + suffix);
    }
  }

  /**
   * Writes a blob column's type: its binary values as Paimon's {@code BLOB}, so {@code BINARY},
   * {@code ARRAY<BINARY>} and {@code MAP<K, BINARY>} become {@code BLOB}, {@code ARRAY<BLOB>} and
   * {@code MAP<K, BLOB>}.
   */
  private static void writeBlob(JsonGenerator gen, DataType type, boolean nullable)
      throws IOException {
    String suffix = nullable ? "" : NOT_NULL;
    if (type instanceof ArrayType array && array.elementType() instanceof BinaryType) {
      gen.writeStartObject();
      gen.writeStringField("type", "ARRAY" + suffix);
      gen.writeFieldName("element");
      gen.writeString(BLOB + (array.containsNull() ? "" : NOT_NULL));
      gen.writeEndObject();
    } else if (type instanceof MapType map && map.valueType() instanceof BinaryType) {
      gen.writeStartObject();
      gen.writeStringField("type", "MAP" + suffix);
      gen.writeFieldName("key");
      write(gen, map.keyType(), false);
      gen.writeFieldName("value");
      gen.writeString(BLOB + (map.valueContainsNull() ? "" : NOT_NULL));
      gen.writeEndObject();
    } else if (type instanceof BinaryType) {
      gen.writeString(BLOB + suffix);
    } else {
      write(gen, type, nullable);
    }
  }

  /** Writes one DataField object: id, name, type and the description when present. */
  static void writeField(
      JsonGenerator gen, int id, String name, DataType type, boolean nullable, String description)
      throws IOException {
    writeField(gen, id, name, type, nullable, description, TimestampPrecision.DEFAULT, null, false);
  }

  /** Writes a top-level column, a timestamp with its precision (Paimon's {@code TIMESTAMP(3)}). */
  static void writeField(
      JsonGenerator gen,
      int id,
      String name,
      DataType type,
      boolean nullable,
      String description,
      int timestampPrecision,
      @Nullable String defaultValue,
      boolean blob)
      throws IOException {
    gen.writeStartObject();
    gen.writeNumberField("id", id);
    gen.writeStringField("name", name);
    gen.writeFieldName("type");
    if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      gen.writeString(timestampName(type, timestampPrecision) + (nullable ? "" : NOT_NULL));
    } else if (blob) {
      writeBlob(gen, type, nullable);
    } else {
      write(gen, type, nullable);
    }
    if (description != null) {
      gen.writeStringField("description", description);
    }
    if (defaultValue != null) {
      // Paimon's DataField field for a column DEFAULT
      gen.writeStringField("defaultValue", defaultValue);
    }
    gen.writeEndObject();
  }

  /** Parses the type JSON {@code node} of column {@code column}. */
  static Parsed parse(JsonNode node, String column) {
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("Column " + column + " has no type");
    }
    if (node.isTextual()) {
      return parseAtomic(node.asText(), column);
    }
    if (!node.isObject() || !node.path("type").isTextual()) {
      throw new IllegalArgumentException("Column " + column + " has an invalid type: " + node);
    }
    String text = node.get("type").asText().trim();
    boolean nullable = !text.toUpperCase(Locale.ROOT).endsWith(NOT_NULL);
    String kind = nullable ? text : text.substring(0, text.length() - NOT_NULL.length()).trim();
    switch (kind.toUpperCase(Locale.ROOT)) {
      case "ARRAY":
        Parsed element = parse(node.get("element"), column + ".element");
        return new Parsed(DataTypes.createArrayType(element.type(), element.nullable()), nullable);
      case "MAP":
        Parsed key = parse(node.get("key"), column + ".key");
        Parsed value = parse(node.get("value"), column + ".value");
        return new Parsed(
            DataTypes.createMapType(key.type(), value.type(), value.nullable()), nullable);
      case "ROW":
        return new Parsed(parseRow(node.get("fields"), column), nullable);
      default:
        throw new IllegalArgumentException(
            "Column " + column + " has type " + kind + ", which Basalt cannot read");
    }
  }

  private static StructType parseRow(JsonNode fields, String column) {
    if (fields == null || !fields.isArray()) {
      throw new IllegalArgumentException("ROW column " + column + " has no fields array");
    }
    List<StructField> result = new ArrayList<>();
    for (JsonNode field : fields) {
      String name = field.path("name").asText(null);
      if (name == null || !field.path("id").canConvertToInt()) {
        throw new IllegalArgumentException(
            "ROW column " + column + " has a field without name or id: " + field);
      }
      Parsed parsed = parse(field.get("type"), column + "." + name);
      MetadataBuilder metadata =
          new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, field.get("id").asInt());
      JsonNode description = field.get("description");
      if (description != null && description.isTextual()) {
        metadata.putString(COMMENT_KEY, description.asText());
      }
      result.add(new StructField(name, parsed.type(), parsed.nullable(), metadata.build()));
    }
    return new StructType(result.toArray(new StructField[0]));
  }

  private static Parsed parseAtomic(String text, String column) {
    String upper = text.trim().toUpperCase(Locale.ROOT);
    boolean nullable = !upper.endsWith(NOT_NULL);
    String body = nullable ? upper : upper.substring(0, upper.length() - NOT_NULL.length()).trim();
    Matcher m = ATOMIC.matcher(body);
    if (!m.matches()) {
      throw unsupported(text, column);
    }
    String name = m.group(1);
    Integer p = m.group(2) == null ? null : Integer.valueOf(m.group(2));
    Integer s = m.group(3) == null ? null : Integer.valueOf(m.group(3));
    String rest = m.group(4).trim();
    if (name.equals("TIMESTAMP") || name.equals("TIMESTAMP_LTZ")) {
      int precision = p == null ? TimestampPrecision.DEFAULT : p;
      if (precision > TimestampPrecision.MAX || s != null) {
        throw new IllegalArgumentException(
            "Column "
                + column
                + " has type "
                + text
                + ": a timestamp's precision must be 0 to "
                + TimestampPrecision.MAX);
      }
      return new Parsed(timestamp(name, rest, text, column), nullable, precision);
    }
    if (!rest.isEmpty()) {
      throw unsupported(text, column);
    }
    return new Parsed(simple(name, p, s, text, column), nullable);
  }

  private static DataType timestamp(String name, String rest, String text, String column) {
    if (name.equals("TIMESTAMP_LTZ") && rest.isEmpty()) {
      return DataTypes.TimestampType;
    }
    if (name.equals("TIMESTAMP") && rest.isEmpty()) {
      return DataTypes.TimestampNTZType;
    }
    if (name.equals("TIMESTAMP") && rest.equals("WITH LOCAL TIME ZONE")) {
      return DataTypes.TimestampType;
    }
    throw unsupported(text, column);
  }

  private static DataType simple(String name, Integer p, Integer s, String text, String column) {
    switch (name) {
      case "BOOLEAN":
        return noArgs(DataTypes.BooleanType, p, text, column);
      case "TINYINT":
        return noArgs(DataTypes.ByteType, p, text, column);
      case "SMALLINT":
        return noArgs(DataTypes.ShortType, p, text, column);
      case "INT":
      case "INTEGER":
        return noArgs(DataTypes.IntegerType, p, text, column);
      case "BIGINT":
        return noArgs(DataTypes.LongType, p, text, column);
      case "FLOAT":
        return noArgs(DataTypes.FloatType, p, text, column);
      case "DOUBLE":
        return noArgs(DataTypes.DoubleType, p, text, column);
      case "DATE":
        return noArgs(DataTypes.DateType, p, text, column);
      case "STRING":
        return noArgs(DataTypes.StringType, p, text, column);
      case "BYTES":
      case BLOB:
        return noArgs(DataTypes.BinaryType, p, text, column);
      case "VARBINARY":
      case "BINARY":
        return DataTypes.BinaryType;
      case "VARCHAR":
        return p == null || p == MAX_VARCHAR_LENGTH ? DataTypes.StringType : new VarcharType(p);
      case "CHAR":
        return new CharType(p == null ? 1 : p);
      case "DECIMAL":
        return decimal(p, s, text, column);
      case "TIME":
        throw new IllegalArgumentException(
            "Column "
                + column
                + " has type "
                + text
                + ", which Spark cannot represent; Basalt cannot read tables with TIME columns");
      default:
        throw unsupported(text, column);
    }
  }

  private static DataType decimal(Integer p, Integer s, String text, String column) {
    int precision = p == null ? 10 : p;
    int scale = s == null ? 0 : s;
    if (precision < 1 || precision > DecimalType.MAX_PRECISION() || scale > precision) {
      throw new IllegalArgumentException("Column " + column + " has invalid decimal type " + text);
    }
    return DataTypes.createDecimalType(precision, scale);
  }

  private static DataType noArgs(DataType type, Integer p, String text, String column) {
    if (p != null) {
      throw unsupported(text, column);
    }
    return type;
  }

  private static IllegalArgumentException unsupported(String text, String column) {
    return new IllegalArgumentException(
        "Column " + column + " has type " + text + ", which Basalt cannot read");
  }

  private static String atomicName(DataType type) {
    if (type instanceof BooleanType) {
      return "BOOLEAN";
    } else if (type instanceof ByteType) {
      return "TINYINT";
    } else if (type instanceof ShortType) {
      return "SMALLINT";
    } else if (type instanceof IntegerType) {
      return "INT";
    } else if (type instanceof LongType) {
      return "BIGINT";
    } else if (type instanceof FloatType) {
      return "FLOAT";
    } else if (type instanceof DoubleType) {
      return "DOUBLE";
    } else if (type instanceof DecimalType d) {
      return "DECIMAL(" + d.precision() + ", " + d.scale() + ")";
    } else if (type instanceof VarcharType v) {
      return "VARCHAR(" + v.length() + ")";
    } else if (type instanceof CharType c) {
      return "CHAR(" + c.length() + ")";
    } else if (type instanceof StringType) {
      return "STRING";
    } else if (type instanceof BinaryType) {
      return "BYTES";
    } else if (type instanceof DateType) {
      return "DATE";
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return timestampName(type, TimestampPrecision.DEFAULT);
    }
    throw new IllegalArgumentException(
        "Spark type " + type.catalogString() + " has no Paimon schema-file encoding");
  }

  private static String timestampName(DataType type, int precision) {
    return type instanceof TimestampType
        ? "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE"
        : "TIMESTAMP(" + precision + ")";
  }

  private static int nestedId(StructField field) {
    return DataField.fieldId(field);
  }

  private static String comment(StructField field) {
    Metadata metadata = field.metadata();
    return metadata.contains(COMMENT_KEY) ? metadata.getString(COMMENT_KEY) : null;
  }
}

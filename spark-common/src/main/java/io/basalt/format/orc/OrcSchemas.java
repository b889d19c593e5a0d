package io.basalt.format.orc;

import io.basalt.format.ParquetSchemas;
import io.basalt.schema.DataField;
import org.apache.orc.TypeDescription;
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
 * Maps a data file's Spark schema to the ORC schema Paimon writes: a struct of the columns, each
 * type carrying its Paimon field id in the attribute {@value #FIELD_ID_ATTRIBUTE} (array elements,
 * map keys and values get the derived ids Parquet files use). Spark's TIMESTAMP (Paimon's TIMESTAMP
 * WITH LOCAL TIME ZONE) is ORC {@code timestamp with local time zone}, TIMESTAMP_NTZ is {@code
 * timestamp}; CHAR(n) and VARCHAR(n) keep their lengths, STRING is {@code string}.
 */
public final class OrcSchemas {
  /** The ORC type attribute holding the Paimon field id, as Paimon names it. */
  public static final String FIELD_ID_ATTRIBUTE = "paimon.id";

  private OrcSchemas() {}

  /**
   * The ORC schema of rows of {@code schema}.
   *
   * @throws IllegalArgumentException naming the column when its type has no ORC form in Paimon
   */
  public static TypeDescription toOrc(StructType schema) {
    TypeDescription struct = TypeDescription.createStruct();
    for (StructField field : schema.fields()) {
      int id = fieldId(field);
      struct.addField(field.name(), convert(field.dataType(), field, id, 0));
    }
    return struct;
  }

  private static int fieldId(StructField field) {
    return field.metadata().contains(DataField.FIELD_ID_KEY)
        ? (int) field.metadata().getLong(DataField.FIELD_ID_KEY)
        : -1;
  }

  private static TypeDescription convert(DataType type, StructField owner, int id, int depth) {
    TypeDescription orc = bare(type, owner, id, depth);
    return id < 0 ? orc : orc.setAttribute(FIELD_ID_ATTRIBUTE, String.valueOf(id));
  }

  private static TypeDescription bare(DataType type, StructField owner, int id, int depth) {
    if (type instanceof BooleanType) {
      return TypeDescription.createBoolean();
    } else if (type instanceof ByteType) {
      return TypeDescription.createByte();
    } else if (type instanceof ShortType) {
      return TypeDescription.createShort();
    } else if (type instanceof IntegerType) {
      return TypeDescription.createInt();
    } else if (type instanceof LongType) {
      return TypeDescription.createLong();
    } else if (type instanceof FloatType) {
      return TypeDescription.createFloat();
    } else if (type instanceof DoubleType) {
      return TypeDescription.createDouble();
    } else if (type instanceof DecimalType decimal) {
      return TypeDescription.createDecimal()
          .withScale(decimal.scale())
          .withPrecision(decimal.precision());
    } else if (type instanceof CharType c) {
      return TypeDescription.createChar().withMaxLength(c.length());
    } else if (type instanceof VarcharType v) {
      return TypeDescription.createVarchar().withMaxLength(v.length());
    } else if (type instanceof StringType) {
      return TypeDescription.createString();
    } else if (type instanceof BinaryType) {
      return TypeDescription.createBinary();
    } else if (type instanceof DateType) {
      return TypeDescription.createDate();
    } else if (type instanceof TimestampType) {
      return TypeDescription.createTimestampInstant();
    } else if (type instanceof TimestampNTZType) {
      return TypeDescription.createTimestamp();
    } else if (type instanceof StructType struct) {
      return toOrc(struct);
    } else if (type instanceof ArrayType array) {
      int elementId = id < 0 ? -1 : ParquetSchemas.elementId(id, depth + 1);
      return TypeDescription.createList(convert(array.elementType(), owner, elementId, depth + 1));
    } else if (type instanceof MapType map) {
      int keyId = id < 0 ? -1 : ParquetSchemas.keyId(id, depth + 1);
      int valueId = id < 0 ? -1 : ParquetSchemas.elementId(id, depth + 1);
      return TypeDescription.createMap(
          convert(map.keyType(), owner, keyId, depth + 1),
          convert(map.valueType(), owner, valueId, depth + 1));
    }
    throw new IllegalArgumentException(
        String.format(
            "Column %s has type %s, which Paimon's ORC data files cannot hold. Fix: use"
                + " 'file.format' = 'parquet' for this table.",
            owner.name(), type.simpleString()));
  }
}

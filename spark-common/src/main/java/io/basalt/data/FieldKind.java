package io.basalt.data;

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
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/** How one BinaryRow slot is encoded, resolved once per field from its Spark type. */
enum FieldKind {
  BOOLEAN,
  BYTE,
  SHORT,
  /** 4-byte ints: INT and DATE (epoch days). */
  INT,
  LONG,
  FLOAT,
  DOUBLE,
  /** Decimals of precision up to 18: the unscaled long in the slot. */
  COMPACT_DECIMAL,
  /** Decimals of precision above 18: unscaled big-endian bytes in 16 reserved var-part bytes. */
  WIDE_DECIMAL,
  /** Timestamps of precision up to 3: epoch millis in the slot (Spark's micros truncated). */
  COMPACT_TIMESTAMP,
  /** Timestamps of precision 4 to 9: millis in the var part, nano of millisecond in the slot. */
  TIMESTAMP,
  /** UTF-8 text: STRING, CHAR, VARCHAR. */
  STRING,
  BINARY;

  /** Largest decimal precision whose unscaled value fits a long. */
  static final int MAX_COMPACT_PRECISION = 18;

  /** The kind for {@code type}, a timestamp having Spark's precision. */
  static FieldKind of(DataType type, int field) {
    return of(type, TimestampPrecision.DEFAULT, field);
  }

  /**
   * The kind for {@code type}; {@code precision} is the Paimon precision when it is a timestamp.
   *
   * @throws IllegalArgumentException for types a BinaryRow key, partition or stats row cannot hold
   */
  static FieldKind of(DataType type, int precision, int field) {
    if (type instanceof BooleanType) {
      return BOOLEAN;
    } else if (type instanceof ByteType) {
      return BYTE;
    } else if (type instanceof ShortType) {
      return SHORT;
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return INT;
    } else if (type instanceof LongType) {
      return LONG;
    } else if (type instanceof FloatType) {
      return FLOAT;
    } else if (type instanceof DoubleType) {
      return DOUBLE;
    } else if (type instanceof DecimalType decimal) {
      return decimal.precision() <= MAX_COMPACT_PRECISION ? COMPACT_DECIMAL : WIDE_DECIMAL;
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return precision <= TimestampPrecision.MAX_COMPACT ? COMPACT_TIMESTAMP : TIMESTAMP;
    } else if (type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType) {
      return STRING;
    } else if (type instanceof BinaryType) {
      return BINARY;
    }
    throw new IllegalArgumentException(
        String.format(
            "Unsupported type %s for BinaryRow field %s: only atomic types can be encoded",
            type.simpleString(), field));
  }
}

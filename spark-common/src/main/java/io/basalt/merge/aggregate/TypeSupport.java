package io.basalt.merge.aggregate;

import java.util.function.Predicate;
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
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/** The column types an aggregate function accepts, with the wording error messages use. */
enum TypeSupport {
  NUMERIC("DECIMAL, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE", TypeSupport::isNumeric),
  COMPARABLE(
      "CHAR, VARCHAR, STRING, DECIMAL, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE,"
          + " TIMESTAMP, TIMESTAMP_NTZ",
      t ->
          isNumeric(t)
              || t instanceof StringType
              || t instanceof DateType
              || t instanceof TimestampType
              || t instanceof TimestampNTZType),
  ANY("every type", t -> true),
  // VARCHAR is a bounded STRING (Spark's VarcharType extends StringType); padded CHAR is not.
  STRING("STRING (and VARCHAR)", t -> t instanceof StringType && !(t instanceof CharType)),
  BOOLEAN("BOOLEAN", t -> t instanceof BooleanType),
  BINARY("BINARY", t -> t instanceof BinaryType),
  ARRAY_OF_STRUCT(
      "ARRAY<STRUCT<...>>", t -> t instanceof ArrayType a && a.elementType() instanceof StructType),
  ARRAY("ARRAY", t -> t instanceof ArrayType),
  MAP("MAP", t -> t instanceof MapType);

  private final String description;
  private final Predicate<DataType> accepts;

  TypeSupport(String description, Predicate<DataType> accepts) {
    this.description = description;
    this.accepts = accepts;
  }

  boolean accepts(DataType type) {
    return accepts.test(type);
  }

  String description() {
    return description;
  }

  private static boolean isNumeric(DataType t) {
    return t instanceof DecimalType
        || t instanceof ByteType
        || t instanceof ShortType
        || t instanceof IntegerType
        || t instanceof LongType
        || t instanceof FloatType
        || t instanceof DoubleType;
  }
}

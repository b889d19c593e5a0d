package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.schema.SchemaFactory;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetRoundTripTest {
  static final StructType POINT =
      new StructType().add("x", DataTypes.IntegerType).add("y", DataTypes.StringType);
  static final StructType NESTED =
      new StructType()
          .add("a", DataTypes.IntegerType)
          .add("b", DataTypes.createArrayType(DataTypes.StringType));

  /** Every supported type, with ids assigned the way table schemas assign them. */
  static final StructType ALL_TYPES =
      SchemaFactory.create(
              0,
              new StructType()
                  .add("id", DataTypes.IntegerType, false)
                  .add("bool", DataTypes.BooleanType)
                  .add("tiny", DataTypes.ByteType)
                  .add("small", DataTypes.ShortType)
                  .add("big", DataTypes.LongType)
                  .add("flt", DataTypes.FloatType)
                  .add("dbl", DataTypes.DoubleType)
                  .add("dec5", DataTypes.createDecimalType(5, 2))
                  .add("dec18", DataTypes.createDecimalType(18, 3))
                  .add("dec38", DataTypes.createDecimalType(38, 10))
                  .add("str", DataTypes.StringType)
                  .add("chr", new CharType(3))
                  .add("vchr", new VarcharType(10))
                  .add("bin", DataTypes.BinaryType)
                  .add("day", DataTypes.DateType)
                  .add("ts", DataTypes.TimestampType)
                  .add("ntz", DataTypes.TimestampNTZType)
                  .add("ints", DataTypes.createArrayType(DataTypes.IntegerType))
                  .add("points", DataTypes.createArrayType(POINT))
                  .add(
                      "counts",
                      DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
                  .add("nested", NESTED),
              List.of(),
              List.of(),
              Map.of(),
              null)
          .rowType();

  @TempDir File dir;

  static InternalRow fullRow(int id, int sign) {
    return new GenericInternalRow(
        new Object[] {
          id,
          sign > 0,
          (byte) (sign * 120),
          (short) (sign * 32000),
          sign * 9_000_000_000L,
          sign * 1.5f,
          sign * 2.25d,
          Decimal.apply(new BigDecimal("123.45").multiply(BigDecimal.valueOf(sign)), 5, 2),
          Decimal.apply(
              new BigDecimal("123456789012345.678").multiply(BigDecimal.valueOf(sign)), 18, 3),
          Decimal.apply(
              new BigDecimal("1234567890123456789012345678.0123456789")
                  .multiply(BigDecimal.valueOf(sign)),
              38,
              10),
          UTF8String.fromString(sign > 0 ? "héllo wörld" : "abc"),
          UTF8String.fromString(sign > 0 ? "xyz" : "ab "),
          UTF8String.fromString("v" + id),
          new byte[] {1, (byte) sign, (byte) 255},
          (int) LocalDate.of(2024, 1, sign > 0 ? 31 : 1).toEpochDay(),
          micros(Instant.parse("2024-01-01T10:15:30.123456Z")) * sign,
          micros(LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000).toInstant(ZoneOffset.UTC)),
          new GenericArrayData(new Object[] {1, null, sign * 3}),
          new GenericArrayData(
              new Object[] {
                new GenericInternalRow(new Object[] {sign, UTF8String.fromString("p")}),
                null,
                new GenericInternalRow(new Object[] {null, null})
              }),
          new ArrayBasedMapData(
              new GenericArrayData(
                  new Object[] {UTF8String.fromString("k1"), UTF8String.fromString("k2")}),
              new GenericArrayData(new Object[] {sign, null})),
          new GenericInternalRow(
              new Object[] {
                id, new GenericArrayData(new Object[] {UTF8String.fromString("s"), null})
              })
        });
  }

  static InternalRow nullRow(int id) {
    Object[] values = new Object[ALL_TYPES.size()];
    values[0] = id;
    return new GenericInternalRow(values);
  }

  static InternalRow emptyCollectionsRow(int id) {
    InternalRow row = nullRow(id);
    row.update(17, new GenericArrayData(new Object[0]));
    row.update(18, new GenericArrayData(new Object[0]));
    row.update(
        19,
        new ArrayBasedMapData(
            new GenericArrayData(new Object[0]), new GenericArrayData(new Object[0])));
    row.update(
        20, new GenericInternalRow(new Object[] {null, new GenericArrayData(new Object[0])}));
    return row;
  }

  static long micros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000;
  }

  static List<InternalRow> sampleRows() {
    return List.of(fullRow(1, 1), nullRow(2), fullRow(3, -1), emptyCollectionsRow(4));
  }

  static WrittenFile write(Path path, StructType schema, List<InternalRow> rows) {
    try (ParquetRowWriter writer =
        new ParquetRowWriter(new Configuration(), path, schema, ParquetWriteOptions.defaults())) {
      for (InternalRow row : rows) {
        writer.write(row);
      }
      assertThat(writer.rowCount()).isEqualTo(rows.size());
      return writer.finish();
    }
  }

  static List<List<Object>> read(Path path, StructType readSchema) {
    List<List<Object>> result = new ArrayList<>();
    try (ParquetRowReader reader =
        ParquetRowReader.open(new Configuration(), path, readSchema, null)) {
      while (reader.hasNext()) {
        result.add(TestValues.row(reader.next(), readSchema));
      }
    }
    return result;
  }

  Path file(String name) {
    return new Path(new File(dir, name).toURI());
  }

  @Test
  void roundTripsEveryTypeWithNulls() {
    Path path = file("all.parquet");
    List<InternalRow> rows = sampleRows();
    WrittenFile written = write(path, ALL_TYPES, rows);

    List<List<Object>> expected = new ArrayList<>();
    for (InternalRow row : rows) {
      expected.add(TestValues.row(row, ALL_TYPES));
    }
    assertThat(read(path, ALL_TYPES)).isEqualTo(expected);
    assertThat(written.rowCount()).isEqualTo(4);
    assertThat(written.fileSize()).isEqualTo(new File(dir, "all.parquet").length());
  }

  @Test
  void reusesOneRowAndCopiesStrings() {
    Path path = file("reuse.parquet");
    write(path, ALL_TYPES, sampleRows());
    try (ParquetRowReader reader =
        ParquetRowReader.open(new Configuration(), path, ALL_TYPES, null)) {
      InternalRow first = reader.next();
      InternalRow copy = first.copy();
      UTF8String str = first.getUTF8String(10);
      InternalRow second = reader.next();
      assertThat(second).isSameAs(first);
      assertThat(str.toString()).isEqualTo("héllo wörld");
      assertThat(TestValues.row(copy, ALL_TYPES))
          .isEqualTo(TestValues.row(fullRow(1, 1), ALL_TYPES));
      assertThat(second.isNullAt(10)).isTrue();
    }
  }

  @Test
  void writesStringBytesOfSlicedStrings() {
    StructType schema =
        SchemaFactory.create(
                0,
                new StructType().add("s", DataTypes.StringType),
                List.of(),
                List.of(),
                Map.of(),
                null)
            .rowType();
    byte[] backing = "xxhelloyy".getBytes(StandardCharsets.UTF_8);
    UTF8String slice = UTF8String.fromBytes(backing, 2, 5);
    Path path = file("slice.parquet");
    write(path, schema, List.of(new GenericInternalRow(new Object[] {slice})));
    assertThat(read(path, schema)).containsExactly(List.of(UTF8String.fromString("hello")));
  }
}

package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.TimestampPrecision;
import io.basalt.schema.DataField;
import io.basalt.utils.CloseableIterator;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same contract for every data file format: types, nulls, stats, projection, ids, errors. */
class DataFileFormatTest {
  @TempDir File dir;

  private Path file(String name) {
    return new Path(new File(dir, name).toURI());
  }

  private static WrittenFile write(
      DataFileFormat format, Path path, StructType schema, List<InternalRow> rows) {
    try (FormatWriter writer =
        format.newWriter(new Configuration(), path, schema, ParquetWriteOptions.defaults())) {
      for (InternalRow row : rows) {
        writer.write(row);
      }
      assertThat(writer.rowCount()).isEqualTo(rows.size());
      return writer.finish();
    }
  }

  private static List<List<Object>> read(DataFileFormat format, Path path, StructType schema) {
    List<List<Object>> result = new ArrayList<>();
    try (CloseableIterator<InternalRow> rows = format.openRows(new Configuration(), path, schema)) {
      while (rows.hasNext()) {
        result.add(TestValues.row(rows.next(), schema));
      }
    }
    return result;
  }

  private static List<List<Object>> expected(List<InternalRow> rows, StructType schema) {
    List<List<Object>> expected = new ArrayList<>();
    for (InternalRow row : rows) {
      expected.add(TestValues.row(row, schema));
    }
    return expected;
  }

  @ParameterizedTest
  @EnumSource(DataFileFormat.class)
  void roundTripsEveryTypeWithNulls(DataFileFormat format) {
    Path path = file("all." + format.id());
    List<InternalRow> rows = ParquetRoundTripTest.sampleRows();
    WrittenFile written = write(format, path, ParquetRoundTripTest.ALL_TYPES, rows);
    List<List<Object>> expected = expected(rows, ParquetRoundTripTest.ALL_TYPES);
    if (format == DataFileFormat.ORC) {
      // ORC's char reader drops the padding (as in Paimon); Spark pads CHAR columns on read
      for (List<Object> row : expected) {
        if (row.get(11) != null) {
          row.set(11, ((UTF8String) row.get(11)).trimRight());
        }
      }
    }
    assertThat(read(format, path, ParquetRoundTripTest.ALL_TYPES)).isEqualTo(expected);
    assertThat(written.rowCount()).isEqualTo(rows.size());
    assertThat(written.fileSize()).isEqualTo(new File(dir, "all." + format.id()).length());
  }

  @ParameterizedTest
  @EnumSource(
      value = DataFileFormat.class,
      names = {"ORC", "AVRO"})
  void collectsTheSameStatsAsParquet(DataFileFormat format) {
    List<InternalRow> rows = ParquetRoundTripTest.sampleRows();
    StructType schema = ParquetRoundTripTest.ALL_TYPES;
    WrittenFile parquet = write(DataFileFormat.PARQUET, file("s.parquet"), schema, rows);
    WrittenFile other = write(format, file("s." + format.id()), schema, rows);
    assertThat(other.stats()).hasSize(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      ColumnStats expected = parquet.stats().get(i);
      ColumnStats actual = other.stats().get(i);
      String column = schema.fields()[i].name();
      if (expected.min() == null && expected.max() == null && expected.nullCount() == null) {
        // nested columns: no stats in any format
        assertThat(actual).as(column).isEqualTo(ColumnStats.UNKNOWN);
        continue;
      }
      assertThat(TestValues.value(actual.min(), schema.fields()[i].dataType()))
          .as(column)
          .isEqualTo(TestValues.value(expected.min(), schema.fields()[i].dataType()));
      assertThat(TestValues.value(actual.max(), schema.fields()[i].dataType()))
          .as(column)
          .isEqualTo(TestValues.value(expected.max(), schema.fields()[i].dataType()));
      assertThat(actual.nullCount()).as(column).isEqualTo(expected.nullCount());
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = DataFileFormat.class,
      names = {"ORC", "AVRO"})
  void nanLeavesMinAndMaxUnknown(DataFileFormat format) {
    StructType schema = withIds(new StructType().add("d", DataTypes.DoubleType));
    List<InternalRow> rows =
        List.of(row(1.0d), row(Double.NaN), row(new Object[] {null}), row(-3.0d));
    WrittenFile written = write(format, file("nan." + format.id()), schema, rows);
    assertThat(written.stats()).containsExactly(new ColumnStats(null, null, 1L));
    WrittenFile plain = write(format, file("plain." + format.id()), schema, rows.subList(0, 1));
    assertThat(plain.stats()).containsExactly(new ColumnStats(1.0d, 1.0d, 0L));
  }

  @ParameterizedTest
  @EnumSource(DataFileFormat.class)
  void projectsByFieldIdAndReadsMissingColumnsAsNull(DataFileFormat format) {
    StructType schema =
        withIds(new StructType().add("a", DataTypes.IntegerType).add("b", DataTypes.StringType));
    Path path = file("p." + format.id());
    write(format, path, schema, List.of(row(1, UTF8String.fromString("x")), row(2, null)));
    // b renamed to c (same id 1), a dropped, a new column d (id 7) added
    StructType evolved =
        new StructType(
            new StructField[] {
              field("c", DataTypes.StringType, 1), field("d", DataTypes.LongType, 7)
            });
    assertThat(read(format, path, evolved))
        .containsExactly(
            java.util.Arrays.asList(UTF8String.fromString("x"), null),
            java.util.Arrays.asList(null, null));
  }

  @ParameterizedTest
  @EnumSource(
      value = DataFileFormat.class,
      names = {"ORC", "AVRO"})
  void widensIntegersToTheRequestedType(DataFileFormat format) {
    StructType schema = withIds(new StructType().add("a", DataTypes.IntegerType));
    Path path = file("w." + format.id());
    write(format, path, schema, List.of(row(5), row(new Object[] {null})));
    StructType wide = new StructType(new StructField[] {field("a", DataTypes.LongType, 0)});
    assertThat(read(format, path, wide))
        .containsExactly(List.of(5L), java.util.Arrays.asList((Object) null));
  }

  @Test
  void avroRefusesNanosecondTimestampsNamingTheColumn() {
    StructField ts = TimestampPrecision.with(field("event_time", DataTypes.TimestampNTZType, 0), 9);
    StructType schema = new StructType(new StructField[] {ts});
    assertThatThrownBy(() -> write(DataFileFormat.AVRO, file("ts.avro"), schema, List.of(row(1L))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Column event_time is a timestamp of precision 9")
        .hasMessageContaining("'file.format' = 'parquet' or 'orc'");
  }

  @Test
  void refusesCodecsAFormatLacksNamingTheOption() {
    StructType schema = withIds(new StructType().add("a", DataTypes.IntegerType));
    ParquetWriteOptions lz4 = new ParquetWriteOptions("lz4", 1 << 20, 1 << 16, false);
    assertThatThrownBy(
            () -> DataFileFormat.AVRO.newWriter(new Configuration(), file("c.avro"), schema, lz4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid value 'lz4' for option 'file.compression'")
        .hasMessageContaining("'file.format' = 'avro'")
        .hasMessageContaining("zstd, snappy, gzip and none");
    ParquetWriteOptions brotli = new ParquetWriteOptions("brotli", 1 << 20, 1 << 16, false);
    assertThatThrownBy(
            () -> DataFileFormat.ORC.newWriter(new Configuration(), file("c.orc"), schema, brotli))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid value 'brotli' for option 'file.compression'")
        .hasMessageContaining("'file.format' = 'orc'");
  }

  @Test
  void namesFormatsByOptionAndExtension() {
    assertThat(DataFileFormat.of(" ORC ")).isEqualTo(DataFileFormat.ORC);
    assertThat(DataFileFormat.ofFileName("data-1-0.avro")).contains(DataFileFormat.AVRO);
    assertThat(DataFileFormat.ofFileName("data-1-0.csv")).isEmpty();
    assertThatThrownBy(() -> DataFileFormat.of("csv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value 'csv' for option 'file.format': expected one of parquet, orc, avro");
  }

  @ParameterizedTest
  @EnumSource(
      value = DataFileFormat.class,
      names = {"ORC", "AVRO"})
  void compressesWithEveryCodec(DataFileFormat format) {
    StructType schema = withIds(new StructType().add("s", DataTypes.StringType));
    List<InternalRow> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(row(UTF8String.fromString("value-" + (i % 7))));
    }
    for (String codec : List.of("zstd", "snappy", "gzip", "none")) {
      Path path = file(codec + "." + format.id());
      ParquetWriteOptions options = new ParquetWriteOptions(codec, 1 << 20, 1 << 16, false);
      try (FormatWriter writer = format.newWriter(new Configuration(), path, schema, options)) {
        rows.forEach(writer::write);
      }
      assertThat(read(format, path, schema)).as(codec).isEqualTo(expected(rows, schema));
    }
  }

  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  private static StructField field(String name, org.apache.spark.sql.types.DataType type, int id) {
    return new StructField(
        name, type, true, new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build());
  }

  private static StructType withIds(StructType schema) {
    StructField[] fields = schema.fields();
    StructField[] result = new StructField[fields.length];
    for (int i = 0; i < fields.length; i++) {
      result[i] = field(fields[i].name(), fields[i].dataType(), i);
    }
    return new StructType(result);
  }
}

package io.basalt.format;

import static io.basalt.format.ParquetRoundTripTest.ALL_TYPES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.schema.DataField;
import java.io.File;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetRowWriterTest {
  @TempDir File dir;

  private Path path(String name) {
    return new Path(new File(dir, name).toURI());
  }

  @Test
  void derivesStatsFromFooter() {
    List<InternalRow> rows = ParquetRoundTripTest.sampleRows();
    WrittenFile file = ParquetRoundTripTest.write(path("stats.parquet"), ALL_TYPES, rows);
    InternalRow pos = ParquetRoundTripTest.fullRow(1, 1);
    InternalRow neg = ParquetRoundTripTest.fullRow(3, -1);
    List<ColumnStats> stats = file.stats();
    assertThat(stats).hasSize(ALL_TYPES.size());

    assertThat(stats.get(0)).isEqualTo(new ColumnStats(1, 4, 0L));
    assertThat(stats.get(1)).isEqualTo(new ColumnStats(false, true, 2L));
    assertThat(stats.get(2)).isEqualTo(new ColumnStats(neg.getByte(2), pos.getByte(2), 2L));
    assertThat(stats.get(3)).isEqualTo(new ColumnStats(neg.getShort(3), pos.getShort(3), 2L));
    assertThat(stats.get(4)).isEqualTo(new ColumnStats(neg.getLong(4), pos.getLong(4), 2L));
    assertThat(stats.get(5)).isEqualTo(new ColumnStats(neg.getFloat(5), pos.getFloat(5), 2L));
    assertThat(stats.get(6)).isEqualTo(new ColumnStats(neg.getDouble(6), pos.getDouble(6), 2L));
    for (int i = 7; i <= 9; i++) {
      var type = (org.apache.spark.sql.types.DecimalType) ALL_TYPES.fields()[i].dataType();
      assertThat(stats.get(i))
          .isEqualTo(
              new ColumnStats(
                  neg.getDecimal(i, type.precision(), type.scale()),
                  pos.getDecimal(i, type.precision(), type.scale()),
                  2L));
    }
    // strings compare as unsigned UTF-8 bytes
    assertThat(stats.get(10))
        .isEqualTo(new ColumnStats(neg.getUTF8String(10), pos.getUTF8String(10), 2L));
    assertThat(stats.get(12))
        .isEqualTo(new ColumnStats(UTF8String.fromString("v1"), UTF8String.fromString("v3"), 2L));
    ColumnStats bin = stats.get(13);
    assertThat((byte[]) bin.min()).containsExactly(pos.getBinary(13));
    assertThat((byte[]) bin.max()).containsExactly(neg.getBinary(13));
    assertThat(stats.get(14)).isEqualTo(new ColumnStats(neg.getInt(14), pos.getInt(14), 2L));
    assertThat(stats.get(15)).isEqualTo(new ColumnStats(neg.getLong(15), pos.getLong(15), 2L));
    assertThat(stats.get(16)).isEqualTo(new ColumnStats(pos.getLong(16), pos.getLong(16), 2L));
    for (int i = 17; i < ALL_TYPES.size(); i++) {
      assertThat(stats.get(i)).isEqualTo(ColumnStats.UNKNOWN);
    }
  }

  @Test
  void statsOfEmptyAndAllNullColumns() {
    WrittenFile empty = ParquetRoundTripTest.write(path("empty.parquet"), ALL_TYPES, List.of());
    assertThat(empty.rowCount()).isZero();
    assertThat(empty.stats().get(10)).isEqualTo(new ColumnStats(null, null, 0L));
    WrittenFile nulls =
        ParquetRoundTripTest.write(
            path("nulls.parquet"), ALL_TYPES, List.of(ParquetRoundTripTest.nullRow(1)));
    assertThat(nulls.stats().get(10)).isEqualTo(new ColumnStats(null, null, 1L));
  }

  @Test
  void truncatesStringStatsLikePaimon() {
    UTF8String longMin = UTF8String.fromString("abcdefghijklmnopqrstuvwxyz");
    UTF8String longMax = UTF8String.fromString("zzzzzzzzzzzzzzzyyyy");
    ColumnStats cut = ColumnStats.truncate(new ColumnStats(longMin, longMax, 3L), 16);
    assertThat(cut)
        .isEqualTo(
            new ColumnStats(
                UTF8String.fromString("abcdefghijklmnop"),
                UTF8String.fromString("zzzzzzzzzzzzzzzz"),
                3L));
    String maxChar = new String(Character.toChars(Character.MAX_CODE_POINT));
    ColumnStats impossible =
        ColumnStats.truncate(
            new ColumnStats(null, UTF8String.fromString("a" + maxChar + "b"), null), 2);
    assertThat(impossible.max()).isNull();
    ColumnStats surrogate =
        ColumnStats.truncate(new ColumnStats(null, UTF8String.fromString("a\uD7FFb"), null), 2);
    assertThat(surrogate.max()).isEqualTo(UTF8String.fromString("a\uE000"));
    ColumnStats small = new ColumnStats(UTF8String.fromString("a"), 5, 0L);
    assertThat(ColumnStats.truncate(small, 16)).isEqualTo(small);
    assertThatThrownBy(() -> ColumnStats.truncate(small, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid truncate length 0: must be >= 1");
  }

  @Test
  void rejectsNullInNotNullColumn() {
    Path path = path("notnull.parquet");
    try (ParquetRowWriter writer =
        new ParquetRowWriter(
            new Configuration(), path, ALL_TYPES, ParquetWriteOptions.defaults())) {
      assertThatThrownBy(() -> writer.write(new GenericInternalRow(ALL_TYPES.size())))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Column id is NOT NULL but the row holds null");
      writer.abort();
    }
  }

  @Test
  void rejectsTooWideDecimal() {
    StructType schema =
        new StructType(
            new StructField[] {
              new StructField(
                  "d",
                  DataTypes.createDecimalType(20, 0),
                  true,
                  new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, 0).build())
            });
    Decimal tooWide = Decimal.apply(new BigDecimal("1e30"));
    try (ParquetRowWriter writer =
        new ParquetRowWriter(
            new Configuration(), path("wide.parquet"), schema, ParquetWriteOptions.defaults())) {
      assertThatThrownBy(() -> writer.write(new GenericInternalRow(new Object[] {tooWide})))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Decimal " + tooWide + " does not fit column d of type DECIMAL(20,0)");
      writer.abort();
    }
  }

  @Test
  void refusesToReplaceExistingFileUnlessOverwriting() {
    Path path = path("twice.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, List.of(ParquetRoundTripTest.nullRow(1)));
    assertThatThrownBy(
            () ->
                new ParquetRowWriter(
                    new Configuration(), path, ALL_TYPES, ParquetWriteOptions.defaults()))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to create Parquet file " + path)
        .hasCauseInstanceOf(org.apache.hadoop.fs.FileAlreadyExistsException.class);

    List<InternalRow> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      rows.add(ParquetRoundTripTest.nullRow(i));
    }
    try (ParquetRowWriter writer =
        new ParquetRowWriter(
            new Configuration(),
            path,
            ALL_TYPES,
            ParquetWriteOptions.defaults().withOverwrite(true))) {
      rows.forEach(writer::write);
      assertThat(writer.estimatedSize()).isPositive();
      WrittenFile file = writer.finish();
      assertThat(writer.finish()).isSameAs(file);
    }
    assertThat(ParquetRoundTripTest.read(path, ALL_TYPES)).hasSize(3);
  }

  @Test
  void rejectsUnknownCodec() {
    ParquetWriteOptions options = new ParquetWriteOptions("zip", 1024, 1024, false);
    assertThatThrownBy(
            () -> new ParquetRowWriter(new Configuration(), path("x.parquet"), ALL_TYPES, options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown Parquet compression 'zip': expected one of zstd, snappy, gzip, lz4_raw,"
                + " uncompressed");
  }

  @Test
  void readsOptionsFromTableOptions() {
    assertThat(ParquetWriteOptions.fromTableOptions(Map.of()))
        .isEqualTo(new ParquetWriteOptions("zstd", 128L << 20, 1 << 20, false));
    assertThat(
            ParquetWriteOptions.fromTableOptions(
                Map.of(
                    "file.compression", "snappy",
                    "parquet.block.size", "1048576",
                    "parquet.page.size", "4096")))
        .isEqualTo(new ParquetWriteOptions("snappy", 1 << 20, 4096, false));
    assertThatThrownBy(
            () -> ParquetWriteOptions.fromTableOptions(Map.of("parquet.block.size", "128 mb")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value '128 mb' for option 'parquet.block.size': expected a positive number"
                + " of bytes");
    assertThatThrownBy(() -> ParquetWriteOptions.fromTableOptions(Map.of("parquet.page.size", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value '0' for option 'parquet.page.size': expected a positive number of"
                + " bytes");
    assertThatThrownBy(() -> new ParquetWriteOptions("zstd", 0, 1, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid row-group size 0: must be positive");
  }
}

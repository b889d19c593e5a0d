package io.basalt.format;

import static io.basalt.format.ParquetRoundTripTest.ALL_TYPES;
import static org.apache.parquet.filter2.predicate.FilterApi.gtEq;
import static org.apache.parquet.filter2.predicate.FilterApi.intColumn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.schema.DataField;
import java.io.File;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetRowReaderTest {
  @TempDir File dir;

  private Path path(String name) {
    return new Path(new File(dir, name).toURI());
  }

  private static StructField withId(String name, DataType type, long id) {
    return new StructField(
        name, type, true, new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build());
  }

  private static StructField column(String name) {
    return ALL_TYPES.fields()[ALL_TYPES.fieldIndex(name)];
  }

  @Test
  void projectsAndReordersColumns() {
    Path path = path("all.parquet");
    List<InternalRow> rows = ParquetRoundTripTest.sampleRows();
    ParquetRoundTripTest.write(path, ALL_TYPES, rows);
    StructType read =
        new StructType(new StructField[] {column("counts"), column("str"), column("id")});

    List<List<Object>> expected = new ArrayList<>();
    for (InternalRow row : rows) {
      List<Object> all = TestValues.row(row, ALL_TYPES);
      expected.add(
          Arrays.asList(
              all.get(ALL_TYPES.fieldIndex("counts")),
              all.get(ALL_TYPES.fieldIndex("str")),
              all.get(0)));
    }
    assertThat(ParquetRoundTripTest.read(path, read)).isEqualTo(expected);
  }

  @Test
  void matchesRenamedColumnsByIdAndReadsMissingOnesAsNull() {
    Path path = path("renamed.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, ParquetRoundTripTest.sampleRows());
    StructField renamed =
        withId("renamed_big", DataTypes.LongType, DataField.fieldId(column("big")));
    StructField added = withId("added", DataTypes.StringType, 999);
    StructType read = new StructType(new StructField[] {added, renamed});
    assertThat(ParquetRoundTripTest.read(path, read))
        .containsExactly(
            Arrays.asList(null, 9_000_000_000L),
            Arrays.asList(null, null),
            Arrays.asList(null, -9_000_000_000L),
            Arrays.asList(null, null));
  }

  @Test
  void upCastsWidenedColumns() {
    Path path = path("narrow.parquet");
    StructType written =
        new StructType(
            new StructField[] {
              withId("b", DataTypes.ByteType, 1),
              withId("i", DataTypes.IntegerType, 2),
              withId("f", DataTypes.FloatType, 3),
              withId("d", DataTypes.createDecimalType(5, 2), 4),
              withId("w", DataTypes.createDecimalType(12, 2), 5)
            });
    org.apache.spark.sql.types.Decimal small =
        org.apache.spark.sql.types.Decimal.apply(new java.math.BigDecimal("123.45"));
    org.apache.spark.sql.types.Decimal wide =
        org.apache.spark.sql.types.Decimal.apply(new java.math.BigDecimal("1234567890.12"));
    ParquetRoundTripTest.write(
        path,
        written,
        List.of(
            new GenericInternalRow(new Object[] {(byte) -3, -7, 1.5f, small, wide}),
            new GenericInternalRow(new Object[] {null, null, null, null, null})));
    StructType read =
        new StructType(
            new StructField[] {
              withId("b", DataTypes.LongType, 1),
              withId("i", DataTypes.LongType, 2),
              withId("f", DataTypes.DoubleType, 3),
              withId("d", DataTypes.createDecimalType(20, 2), 4),
              withId("w", DataTypes.createDecimalType(30, 2), 5)
            });
    List<List<Object>> rows = ParquetRoundTripTest.read(path, read);
    assertThat(rows.get(0).subList(0, 3)).containsExactly(-3L, -7L, 1.5d);
    assertThat(rows.get(0).get(3).toString()).isEqualTo("123.45");
    assertThat(rows.get(0).get(4).toString()).isEqualTo("1234567890.12");
    assertThat(rows.get(1)).containsOnlyNulls();
  }

  @Test
  void projectsNestedStructFields() {
    Path path = path("nested.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, ParquetRoundTripTest.sampleRows());
    StructType nested = (StructType) column("nested").dataType();
    StructField b = nested.fields()[1];
    StructType readNested =
        new StructType(new StructField[] {b, withId("gone", DataTypes.IntegerType, 555)});
    StructType onlyMissing =
        new StructType(new StructField[] {withId("gone", DataTypes.IntegerType, 555)});
    int nestedId = DataField.fieldId(column("nested"));
    StructType read = new StructType(new StructField[] {withId("nested", readNested, nestedId)});
    List<Object> s = Arrays.asList(UTF8String.fromString("s"), null);
    assertThat(ParquetRoundTripTest.read(path, read))
        .containsExactly(
            List.of(Arrays.asList(s, null)),
            Arrays.asList((Object) null),
            List.of(Arrays.asList(s, null)),
            List.of(Arrays.asList(List.of(), null)));

    // a struct whose requested fields are all missing is still null exactly when the file's is
    StructType missing = new StructType(new StructField[] {withId("n2", onlyMissing, nestedId)});
    assertThat(ParquetRoundTripTest.read(path, missing))
        .containsExactly(
            List.of(Arrays.asList((Object) null)),
            Arrays.asList((Object) null),
            List.of(Arrays.asList((Object) null)),
            List.of(Arrays.asList((Object) null)));
  }

  @Test
  void readsNothingButRowCountWhenNoColumnExists() {
    Path path = path("count.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, ParquetRoundTripTest.sampleRows());
    StructType read = new StructType(new StructField[] {withId("x", DataTypes.IntegerType, 777)});
    assertThat(ParquetRoundTripTest.read(path, read)).hasSize(4).allMatch(r -> r.get(0) == null);
  }

  @Test
  void fallsBackToNamesWhenFileHasNoIds() throws Exception {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            """
            message spark_schema {
              required int32 a;
              optional binary b (STRING);
              optional group l (LIST) { repeated group list { optional int64 element; } }
            }
            """);
    Path path = path("no-ids.parquet");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(path).withType(schema).withConf(new Configuration()).build()) {
      Group group = new SimpleGroupFactory(schema).newGroup().append("a", 5).append("b", "bee");
      Group list = group.addGroup("l");
      list.addGroup("list").append("element", 8L);
      list.addGroup("list");
      writer.write(group);
    }
    StructType read =
        new StructType(
            new StructField[] {
              withId("l", DataTypes.createArrayType(DataTypes.LongType), 1),
              withId("b", DataTypes.StringType, 0),
              withId("a", DataTypes.IntegerType, 7)
            });
    assertThat(ParquetRoundTripTest.read(path, read))
        .containsExactly(Arrays.asList(Arrays.asList(8L, null), UTF8String.fromString("bee"), 5));
  }

  @Test
  void skipsRowGroupsWithFilter() {
    StructType schema = new StructType(new StructField[] {withId("n", DataTypes.IntegerType, 0)});
    Path path = path("groups.parquet");
    ParquetWriteOptions tinyGroups = new ParquetWriteOptions("snappy", 1, 1024, false);
    try (ParquetRowWriter writer =
        new ParquetRowWriter(new Configuration(), path, schema, tinyGroups)) {
      for (int n = 0; n < 1000; n++) {
        writer.write(new GenericInternalRow(new Object[] {n}));
      }
    }
    List<BlockMetaData> blocks;
    try {
      blocks = ParquetSchemasTest.footer(path).getBlocks();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(blocks).hasSizeGreaterThan(2);
    long lastGroupRows = blocks.get(blocks.size() - 1).getRowCount();
    int firstOfLast = (int) (1000 - lastGroupRows);

    FilterCompat.Filter filter = FilterCompat.get(gtEq(intColumn("n"), firstOfLast));
    List<Integer> seen = new ArrayList<>();
    try (ParquetRowReader reader =
        ParquetRowReader.open(new Configuration(), path, schema, filter)) {
      reader.forEachRemaining(row -> seen.add(row.getInt(0)));
    }
    assertThat(seen).hasSize((int) lastGroupRows).first().isEqualTo(firstOfLast);
    assertThat(seen).last().isEqualTo(999);
  }

  @Test
  void failsOnMissingFileNamingIt() {
    Path path = path("missing.parquet");
    assertThatThrownBy(() -> ParquetRowReader.open(new Configuration(), path, ALL_TYPES, null))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to open Parquet file " + path)
        .hasCauseInstanceOf(FileNotFoundException.class);
  }

  @Test
  void failsOnCorruptFileNamingIt() throws Exception {
    File corrupt = new File(dir, "corrupt.parquet");
    Files.writeString(corrupt.toPath(), "this is not parquet at all, not even close");
    Path path = new Path(corrupt.toURI());
    assertThatThrownBy(() -> ParquetRowReader.open(new Configuration(), path, ALL_TYPES, null))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to open Parquet file " + path)
        .hasMessageContaining("is not a Parquet file")
        .hasCauseInstanceOf(RuntimeException.class);
  }

  @Test
  void failsOnTypeMismatchNamingColumnAndFile() {
    Path path = path("mismatch.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, ParquetRoundTripTest.sampleRows());
    StructType read =
        new StructType(
            new StructField[] {
              withId("str", DataTypes.IntegerType, DataField.fieldId(column("str")))
            });
    assertThatThrownBy(() -> ParquetRowReader.open(new Configuration(), path, read, null))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Column str in Parquet file "
                + path
                + " has type 'optional binary str (STRING) = "
                + DataField.fieldId(column("str"))
                + "', which cannot be read as INT");
  }

  @Test
  void nextPastEndFails() {
    Path path = path("empty.parquet");
    ParquetRoundTripTest.write(path, ALL_TYPES, List.of());
    try (ParquetRowReader reader =
        ParquetRowReader.open(new Configuration(), path, ALL_TYPES, null)) {
      assertThat(reader.hasNext()).isFalse();
      assertThatThrownBy(reader::next)
          .isInstanceOf(java.util.NoSuchElementException.class)
          .hasMessage("No more rows in Parquet file " + path);
    }
  }
}

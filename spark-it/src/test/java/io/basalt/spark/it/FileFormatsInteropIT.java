package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ORC and Avro tables across systems: tables Paimon 1.3.1 writes as ORC or Avro read by Basalt, and
 * tables Basalt writes as ORC or Avro read by Paimon, both before and after the other system writes
 * and compacts them. Values are rendered one way for both: rows {@code {a,b}}, arrays {@code
 * [a,b]}, maps {@code {k=v}} with sorted keys, timestamps as epoch micros, dates as epoch days.
 */
class FileFormatsInteropIT extends SparkTestBase {
  private static final String SPARK_COLUMNS =
      "id, s, n, CAST(d AS STRING), f, b, unix_micros(CAST(ts AS TIMESTAMP)), unix_micros(ltz),"
          + " unix_date(dt), hex(bin), arr, m, mi, r";

  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() throws Exception {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS fi");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  private static BinaryString s(String value) {
    return BinaryString.fromString(value);
  }

  private static Schema schema(String format) {
    return Schema.newBuilder()
        .column("id", DataTypes.INT().notNull())
        .column("s", DataTypes.STRING())
        .column("n", DataTypes.BIGINT())
        .column("d", DataTypes.DECIMAL(20, 4))
        .column("f", DataTypes.DOUBLE())
        .column("b", DataTypes.BOOLEAN())
        .column("ts", DataTypes.TIMESTAMP(6))
        .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
        .column("dt", DataTypes.DATE())
        .column("bin", DataTypes.BYTES())
        .column("arr", DataTypes.ARRAY(DataTypes.INT()))
        .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
        .column("mi", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()))
        .column(
            "r",
            DataTypes.ROW(
                DataTypes.FIELD(20, "x", DataTypes.INT()),
                DataTypes.FIELD(21, "y", DataTypes.STRING())))
        .primaryKey("id")
        .option("bucket", "2")
        .option("file.format", format)
        .build();
  }

  private static GenericRow paimonRow(int id, String value, long micros) {
    return GenericRow.of(
        id,
        s(value),
        id * 1000L,
        Decimal.fromBigDecimal(new BigDecimal(id + ".0125"), 20, 4),
        id * 0.5,
        id % 2 == 0,
        Timestamp.fromMicros(micros),
        Timestamp.fromMicros(micros + 1),
        19_000 + id,
        new byte[] {(byte) id, 0, -1},
        new GenericArray(new Object[] {id, null}),
        new GenericMap(Map.of(s("k" + id), id)),
        new GenericMap(Map.of(id, s("v" + id))),
        GenericRow.of(id, s("y" + id)));
  }

  private static String expected(int id, String value, long micros) {
    return String.format(
        "%d,%s,%d,%d.0125,%s,%s,%d,%d,%d,%02X00FF,[%d,null],{k%d=%d},{%d=v%d},{%d,y%d}",
        id,
        value,
        id * 1000L,
        id,
        id * 0.5,
        id % 2 == 0,
        micros,
        micros + 1,
        19_000 + id,
        id,
        id,
        id,
        id,
        id,
        id,
        id,
        id);
  }

  private static final long MICROS = 1_728_432_000_123_456L; // 2024-10-09 00:00:00.123456

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void paimonWrittenTablesReadByBasaltAndBack(String format) throws Exception {
    String table = "pw_" + format;
    paimon.catalog().createTable(Identifier.create("fi", table), schema(format), false);
    paimon.write("fi", table, paimonRow(1, "a", MICROS), paimonRow(2, "b", -MICROS));
    GenericRow retract = paimonRow(2, "b", -MICROS);
    retract.setRowKind(RowKind.DELETE);
    paimon.write("fi", table, paimonRow(1, "a2", MICROS), paimonRow(3, "c", 0), retract);
    List<String> expected = List.of(expected(1, "a2", MICROS), expected(3, "c", 0));
    assertThat(sparkRendered(table)).isEqualTo(expected);
    assertThat(rows("SELECT id FROM fi.%s WHERE n = 3000 AND s = 'c'", table)).containsExactly("3");

    // Basalt writes and compacts in the table's format; Paimon reads the result
    sql(
        "INSERT INTO fi.%s SELECT 4, 'd', 4000L, 4.0125, 2.0D, true,"
            + " timestamp_micros(%dL), timestamp_micros(%dL), date_from_unix_date(19004), X'0400FF',"
            + " array(4, NULL), map('k4', 4), map(4, 'v4'), named_struct('x', 4, 'y', 'y4')",
        table, MICROS, MICROS + 1);
    sql("CALL sys.compact(table => 'fi.%s')", table);
    List<String> all = new ArrayList<>(expected);
    all.add(expected(4, "d", MICROS));
    assertThat(sparkRendered(table)).isEqualTo(all);
    assertThat(paimonRendered(table)).isEqualTo(all);
    assertThat(dataFiles(tablePath("fi", table))).isEmpty(); // no Parquet anywhere
    assertThat(filesUnder(tablePath("fi", table)))
        .filteredOn(f -> f.contains("/data-"))
        .isNotEmpty()
        .allMatch(f -> f.endsWith("." + format));
  }

  @ParameterizedTest
  @ValueSource(strings = {"orc", "avro"})
  void basaltWrittenTablesReadByPaimonAndBack(String format) throws Exception {
    String table = "bw_" + format;
    sql(
        "CREATE TABLE fi.%s (id INT NOT NULL, s STRING, n BIGINT, d DECIMAL(20,4), f DOUBLE,"
            + " b BOOLEAN, ts TIMESTAMP_NTZ, ltz TIMESTAMP, dt DATE, bin BINARY, arr ARRAY<INT>,"
            + " m MAP<STRING, INT>, mi MAP<INT, STRING>, r STRUCT<x: INT, y: STRING>)"
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'file.format' = '%s')",
        table, format);
    for (int id = 1; id <= 3; id++) {
      long micros = id == 2 ? -MICROS : MICROS;
      sql(
          "INSERT INTO fi.%s SELECT %d, '%s', %dL, %d.0125, %s, %s, CAST(timestamp_micros(%dL) AS"
              + " TIMESTAMP_NTZ), timestamp_micros(%dL), date_from_unix_date(%d), X'%02X00FF',"
              + " array(%d, NULL), map('k%d', %d), map(%d, 'v%d'), named_struct('x', %d, 'y',"
              + " 'y%d')",
          table,
          id,
          "v" + id,
          id * 1000L,
          id,
          id * 0.5 + "D",
          id % 2 == 0,
          micros,
          micros + 1,
          19_000 + id,
          id,
          id,
          id,
          id,
          id,
          id,
          id,
          id);
    }
    sql("UPDATE fi.%s SET s = 'v1b' WHERE id = 1", table);
    sql("DELETE FROM fi.%s WHERE id = 2", table);
    List<String> expected = List.of(expected(1, "v1b", MICROS), expected(3, "v3", MICROS));
    assertThat(sparkRendered(table)).isEqualTo(expected);
    assertThat(paimonRendered(table)).isEqualTo(expected);

    paimon.write("fi", table, paimonRow(5, "p5", 0));
    paimon.compact("fi", table);
    List<String> all = new ArrayList<>(expected);
    all.add(expected(5, "p5", 0));
    assertThat(paimonRendered(table)).isEqualTo(all);
    assertThat(sparkRendered(table)).isEqualTo(all);
  }

  // ---- one rendering for both systems ----

  private List<String> sparkRendered(String table) {
    List<String> result = new ArrayList<>();
    for (Object[] row : sql("SELECT %s FROM fi.%s", SPARK_COLUMNS, table)) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        sb.append(i == 0 ? "" : ",").append(sparkValue(row[i]));
      }
      result.add(sb.toString());
    }
    result.sort(null);
    return result;
  }

  private static String sparkValue(Object value) {
    if (value instanceof org.apache.spark.sql.Row row) {
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        parts.add(sparkValue(row.get(i)));
      }
      return "{" + String.join(",", parts) + "}";
    } else if (value instanceof scala.collection.Seq<?> seq) {
      List<String> parts = new ArrayList<>();
      for (Object element : scala.jdk.javaapi.CollectionConverters.asJava(seq)) {
        parts.add(sparkValue(element));
      }
      return "[" + String.join(",", parts) + "]";
    } else if (value instanceof scala.collection.Map<?, ?> map) {
      Map<String, String> sorted = new TreeMap<>();
      scala.jdk.javaapi.CollectionConverters.asJava(map)
          .forEach((k, v) -> sorted.put(sparkValue(k), sparkValue(v)));
      return sorted.toString();
    }
    return String.valueOf(value);
  }

  private List<String> paimonRendered(String table) throws Exception {
    Table paimonTable = paimon.table("fi", table);
    RowType type = paimonTable.rowType();
    ReadBuilder builder = paimonTable.newReadBuilder();
    List<String> result = new ArrayList<>();
    try (RecordReader<InternalRow> reader =
        builder.newRead().createReader(builder.newScan().plan())) {
      reader.forEachRemaining(row -> result.add(paimonRow(row, type, false)));
    }
    result.sort(null);
    return result;
  }

  private static String paimonRow(InternalRow row, RowType type, boolean braces) {
    List<String> parts = new ArrayList<>();
    List<DataField> fields = type.getFields();
    for (int i = 0; i < fields.size(); i++) {
      Object value = InternalRow.createFieldGetter(fields.get(i).type(), i).getFieldOrNull(row);
      parts.add(paimonValue(value, fields.get(i).type()));
    }
    String joined = String.join(",", parts);
    return braces ? "{" + joined + "}" : joined;
  }

  private static String paimonValue(Object value, DataType type) {
    if (value == null) {
      return "null";
    } else if (value instanceof Timestamp timestamp) {
      return String.valueOf(timestamp.toMicros());
    } else if (value instanceof byte[] bytes) {
      return java.util.HexFormat.of().withUpperCase().formatHex(bytes);
    } else if (value instanceof InternalRow nested) {
      return paimonRow(nested, (RowType) type, true);
    } else if (value instanceof InternalArray array) {
      DataType element = ((ArrayType) type).getElementType();
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < array.size(); i++) {
        parts.add(
            paimonValue(
                InternalArray.createElementGetter(element).getElementOrNull(array, i), element));
      }
      return "[" + String.join(",", parts) + "]";
    } else if (value instanceof InternalMap map) {
      MapType mapType = (MapType) type;
      Map<String, String> sorted = new TreeMap<>();
      InternalArray keys = map.keyArray();
      InternalArray values = map.valueArray();
      for (int i = 0; i < map.size(); i++) {
        sorted.put(
            paimonValue(
                InternalArray.createElementGetter(mapType.getKeyType()).getElementOrNull(keys, i),
                mapType.getKeyType()),
            paimonValue(
                InternalArray.createElementGetter(mapType.getValueType())
                    .getElementOrNull(values, i),
                mapType.getValueType()));
      }
      return sorted.toString();
    }
    return value.toString();
  }
}

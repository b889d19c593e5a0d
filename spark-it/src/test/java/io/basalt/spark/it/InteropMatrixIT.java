package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The interop cells the first two suites leave open: nested values written by Basalt, the
 * collection aggregates (collect, merge_map, nested_update) in both directions, branches and
 * snapshot expiration done by Paimon, and Paimon's nanosecond timestamps. Values are compared in
 * one rendering for both systems: rows as {@code {a,b}}, arrays as {@code [a,b]}, maps as {@code
 * {k=v}} with sorted keys.
 */
class InteropMatrixIT extends SparkTestBase {
  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() throws Exception {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS im");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  private static BinaryString s(String value) {
    return BinaryString.fromString(value);
  }

  @Test
  void nestedValuesWrittenByBasaltReadTheSameInPaimon() throws Exception {
    sql(
        "CREATE TABLE im.nested (id INT, r STRUCT<x: INT, y: STRING>, arr ARRAY<INT>,"
            + " m MAP<STRING, INT>, dec DECIMAL(20, 4), ts TIMESTAMP_NTZ,"
            + " deep ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<BIGINT>>>>)"
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    sql(
        "INSERT INTO im.nested VALUES"
            + " (1, named_struct('x', 7, 'y', 'y1'), array(1, 2), map('k', 5, 'j', 6),"
            + " 12.3400, TIMESTAMP_NTZ '2024-10-09 00:00:00.123456',"
            + " array(named_struct('a', 1, 'b', map('p', array(10L, 11L))))),"
            + " (2, NULL, array(), map(), NULL, NULL, NULL),"
            + " (3, named_struct('x', NULL, 'y', 'y3'), array(NULL, 3), map('n', NULL),"
            + " -0.0001, TIMESTAMP_NTZ '1969-12-31 23:59:59.999999', array())");
    sql("UPDATE im.nested SET r = named_struct('x', 8, 'y', 'y1b'), arr = array(9) WHERE id = 1");
    sql("ALTER TABLE im.nested ADD COLUMN r.z BIGINT");
    sql(
        "INSERT INTO im.nested VALUES (4, named_struct('x', 4, 'y', 'y4', 'z', 40L),"
            + " NULL, NULL, 1.5, NULL, NULL)");
    sql("CALL sys.compact(table => 'im.nested')");
    sql("DELETE FROM im.nested WHERE id = 2");

    List<String> basalt = sparkRendered("SELECT * FROM im.nested");
    assertThat(basalt)
        .containsExactly(
            "1,{8,y1b,null},[9],{j=6, k=5},12.3400,2024-10-09T00:00:00.123456,[{1,{p=[10,11]}}]",
            "3,{null,y3,null},[null,3],{n=null},-0.0001,1969-12-31T23:59:59.999999,[]",
            "4,{4,y4,40},null,null,1.5000,null,null");
    assertThat(paimonRendered("im", "nested")).isEqualTo(basalt);

    // Paimon's writer appends nested values to the Basalt table; Basalt reads them back
    paimon.write(
        "im",
        "nested",
        GenericRow.of(
            5,
            GenericRow.of(50, s("y5"), 500L),
            new GenericArray(new int[] {5}),
            new GenericMap(Map.of(s("f"), 1)),
            Decimal.fromBigDecimal(new BigDecimal("5.0000"), 20, 4),
            Timestamp.fromMicros(1_000_001L),
            new GenericArray(
                new Object[] {
                  GenericRow.of(
                      2, new GenericMap(Map.of(s("q"), new GenericArray(new long[] {3L}))))
                })));
    List<String> both = sparkRendered("SELECT * FROM im.nested");
    assertThat(both)
        .contains("5,{50,y5,500},[5],{f=1},5.0000,1970-01-01T00:00:01.000001,[{2,{q=[3]}}]");
    assertThat(paimonRendered("im", "nested")).isEqualTo(both);
  }

  /**
   * collect, merge_map and nested_update on a table each system creates and both write. Paimon 1.3
   * keeps distinct collect and nested_update arrays in hash order, so those columns are compared as
   * sets of elements; Paimon 1.3 has no nested_partial_update (docs/format.md).
   */
  @Test
  void collectionAggregatesInBothDirections() throws Exception {
    String options =
        "'merge-engine' = 'aggregation', 'bucket' = '1',"
            + " 'fields.c.aggregate-function' = 'collect',"
            + " 'fields.cd.aggregate-function' = 'collect', 'fields.cd.distinct' = 'true',"
            + " 'fields.mm.aggregate-function' = 'merge_map',"
            + " 'fields.nu.aggregate-function' = 'nested_update', 'fields.nu.nested-key' = 'k',"
            + " 'fields.lv.aggregate-function' = 'last_value'";
    sql(
        "CREATE TABLE im.coll_b (id INT, c ARRAY<INT>, cd ARRAY<STRING>, mm MAP<STRING, INT>,"
            + " nu ARRAY<STRUCT<k: INT, v: STRING>>, lv STRING)"
            + " TBLPROPERTIES ('primary-key' = 'id', %s)",
        options);
    paimon
        .catalog()
        .createTable(
            Identifier.create("im", "coll_p"),
            Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("c", DataTypes.ARRAY(DataTypes.INT()))
                .column("cd", DataTypes.ARRAY(DataTypes.STRING()))
                .column("mm", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                .column(
                    "nu",
                    DataTypes.ARRAY(
                        DataTypes.ROW(
                            DataTypes.FIELD(0, "k", DataTypes.INT()),
                            DataTypes.FIELD(1, "v", DataTypes.STRING()))))
                .column("lv", DataTypes.STRING())
                .primaryKey("id")
                .options(optionMap(options))
                .build(),
            false);

    for (String t : List.of("coll_b", "coll_p")) {
      // the first write by Basalt, the second by Paimon, the third by Basalt again
      sql(
          "INSERT INTO im.%s VALUES (1, array(1, 2), array('a', 'b'), map('x', 1, 'y', 2),"
              + " array(named_struct('k', 1, 'v', 'one'), named_struct('k', 2, 'v', 'two')), 'l1')",
          t);
      paimon.write(
          "im",
          t,
          GenericRow.of(
              1,
              new GenericArray(new int[] {2, 3}),
              new GenericArray(new Object[] {s("b"), s("c")}),
              new GenericMap(Map.of(s("y"), 20, s("z"), 30)),
              new GenericArray(
                  new Object[] {GenericRow.of(2, s("TWO")), GenericRow.of(3, s("three"))}),
              s("l2")));
      sql(
          "INSERT INTO im.%s VALUES (1, array(4), array('a', 'd'), map('x', 10),"
              + " array(named_struct('k', 1, 'v', 'ONE')), NULL)",
          t);
      List<String> expected =
          List.of("1,[1,2,2,3,4],[a,b,c,d],{x=10, y=20, z=30},[{1,ONE},{2,TWO},{3,three}],null");
      assertThat(sortNested(sparkRendered("SELECT * FROM im.%s", t))).as(t).isEqualTo(expected);
      assertThat(sortNested(paimonRendered("im", t))).as(t).isEqualTo(expected);
      sql("CALL sys.compact(table => 'im.%s')", t);
      assertThat(sortNested(paimonRendered("im", t))).as(t + " compacted").isEqualTo(expected);
    }
  }

  /**
   * The rows with the elements of the distinct collect column (the third) and the nested_update
   * column (the fifth) sorted: Paimon 1.3 builds both through hash collections, so their order is
   * unspecified.
   */
  private static List<String> sortNested(List<String> rows) {
    List<String> result = new ArrayList<>();
    for (String row : rows) {
      List<String> columns = splitTopLevel(row, 0);
      for (int column : new int[] {2, 4}) {
        String array = columns.get(column);
        List<String> elements = splitTopLevel(array.substring(1, array.length() - 1), 0);
        elements.sort(null);
        columns.set(column, "[" + String.join(",", elements) + "]");
      }
      result.add(String.join(",", columns));
    }
    return result;
  }

  /** {@code text} split at the commas outside brackets and braces. */
  private static List<String> splitTopLevel(String text, int from) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = from;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[' || c == '{') {
        depth++;
      } else if (c == ']' || c == '}') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private static Map<String, String> optionMap(String sqlOptions) {
    Map<String, String> map = new TreeMap<>();
    for (String pair : sqlOptions.split(",\\s*(?=')")) {
      String[] kv = pair.split("\\s*=\\s*");
      map.put(kv[0].trim().replace("'", ""), kv[1].trim().replace("'", ""));
    }
    return map;
  }

  /** A branch made by one system is read and written by the other. */
  @Test
  void branchesAcrossSystems() throws Exception {
    sql(
        "CREATE TABLE im.br (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO im.br VALUES (1, 'a'), (2, 'b')");
    sql("CALL sys.create_tag(table => 'im.br', tag => 't1', snapshot => 1)");
    sql("CALL sys.create_branch(table => 'im.br', branch => 'basalt_b', tag => 't1')");
    sql("INSERT INTO im.`br$branch_basalt_b` VALUES (2, 'b-basalt'), (3, 'c')");

    Table paimonBranch = paimon.catalog().getTable(new Identifier("im", "br", "basalt_b"));
    assertThat(paimon.rows(paimonBranch)).containsExactly("1,a", "2,b-basalt", "3,c");
    paimon.write("im", "br$branch_basalt_b", GenericRow.of(4, s("d-paimon")));
    assertThat(rows("SELECT * FROM im.`br$branch_basalt_b`"))
        .containsExactly("1,a", "2,b-basalt", "3,c", "4,d-paimon");

    paimon.table("im", "br").createBranch("paimon_b", "t1");
    paimon.write("im", "br$branch_paimon_b", GenericRow.of(5, s("e")));
    assertThat(rows("SELECT * FROM im.`br$branch_paimon_b`")).containsExactly("1,a", "2,b", "5,e");
    sql("INSERT INTO im.`br$branch_paimon_b` VALUES (1, 'a-basalt')");
    assertThat(paimon.rows(paimon.catalog().getTable(new Identifier("im", "br", "paimon_b"))))
        .containsExactly("1,a-basalt", "2,b", "5,e");
    assertThat(rows("SELECT branch_name FROM im.`br$branches`"))
        .containsExactly("basalt_b", "paimon_b");
    // the main branch is untouched by both
    assertThat(rows("SELECT * FROM im.br")).containsExactly("1,a", "2,b");
    assertThat(paimon.rows("im", "br")).containsExactly("1,a", "2,b");
  }

  /** Paimon expires snapshots of a table Basalt wrote; Basalt reads on and names what is gone. */
  @Test
  void snapshotsExpiredByPaimon() throws Exception {
    sql(
        "CREATE TABLE im.exp (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
            + " 'snapshot.num-retained.min' = '1')");
    for (int i = 1; i <= 4; i++) {
      sql("INSERT INTO im.exp VALUES (%s, 'v%s'), (1, 'latest%s')", i + 1, i + 1, i);
    }
    sql("CALL sys.create_tag(table => 'im.exp', tag => 'keep2', snapshot => 2)");
    FileStoreTable table = (FileStoreTable) paimon.table("im", "exp");
    int expired =
        table
            .newExpireSnapshots()
            .config(
                ExpireConfig.builder()
                    .snapshotRetainMin(1)
                    .snapshotRetainMax(1)
                    .snapshotTimeRetain(java.time.Duration.ZERO)
                    .build())
            .expire();
    assertThat(expired).isEqualTo(3);

    List<String> latest = List.of("1,latest4", "2,v2", "3,v3", "4,v4", "5,v5");
    assertThat(rows("SELECT * FROM im.exp")).isEqualTo(latest);
    assertThat(rows("SELECT * FROM im.exp VERSION AS OF 'keep2'"))
        .containsExactly("1,latest2", "2,v2", "3,v3");
    assertThat(rows("SELECT snapshot_id FROM im.`exp$snapshots`")).containsExactly("4");
    assertThatThrownBy(() -> sql("SELECT * FROM im.exp VERSION AS OF 1"))
        .hasMessageContaining("Snapshot 1 of table")
        .hasMessageContaining("exp");
    // Basalt writes on top of Paimon's expiration, and its own expiration keeps the tag's files
    sql("INSERT INTO im.exp VALUES (6, 'v6')");
    sql("CALL sys.expire_snapshots(table => 'im.exp', retain_max => 1)");
    List<String> withSix = new ArrayList<>(latest);
    withSix.add("6,v6");
    assertThat(paimon.rows("im", "exp")).isEqualTo(withSix);
    assertThat(paimon.rows(paimon.table("im", "exp").copy(Map.of("scan.tag-name", "keep2"))))
        .containsExactly("1,latest2", "2,v2", "3,v3");
  }

  /**
   * Paimon stores TIMESTAMP(7..9) with nanoseconds; Spark's timestamps hold microseconds, so Basalt
   * reads them truncated to the microsecond, filters on them and keeps them through a compaction.
   */
  @Test
  void nanosecondTimestampsWrittenByPaimon() throws Exception {
    paimon
        .catalog()
        .createTable(
            Identifier.create("im", "nanos"),
            Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("ts9", DataTypes.TIMESTAMP(9))
                .column("ts7", DataTypes.TIMESTAMP(7))
                .primaryKey("id")
                .option("bucket", "1")
                .build(),
            false);
    long millis = 1_728_432_000_123L; // 2024-10-09 00:00:00.123
    paimon.write(
        "im",
        "nanos",
        GenericRow.of(
            1,
            Timestamp.fromEpochMillis(millis, 456_789),
            Timestamp.fromEpochMillis(millis, 456_700)),
        GenericRow.of(2, Timestamp.fromEpochMillis(-1, 999_999), null));
    assertThat(rows("SELECT id, CAST(ts9 AS STRING), CAST(ts7 AS STRING) FROM im.nanos"))
        .containsExactly(
            "1,2024-10-09 00:00:00.123456,2024-10-09 00:00:00.123456",
            "2,1969-12-31 23:59:59.999999,null");
    assertThat(rows("SELECT id FROM im.nanos WHERE ts9 > TIMESTAMP_NTZ '2024-10-09 00:00:00.123'"))
        .containsExactly("1");
    sql("UPDATE im.nanos SET ts7 = ts9 WHERE id = 2");
    assertThat(rows("SELECT id, CAST(ts7 AS STRING) FROM im.nanos WHERE id = 2"))
        .containsExactly("2,1969-12-31 23:59:59.999999");
    assertThat(paimonRendered("im", "nanos"))
        .contains("2,1969-12-31T23:59:59.999999,1969-12-31T23:59:59.999999");
  }

  // ---- one rendering for both systems ----

  private List<String> sparkRendered(String query, Object... args) {
    org.apache.spark.sql.Dataset<Row> frame = spark.sql(String.format(query, args));
    List<String> result = new ArrayList<>();
    for (Row row : frame.collectAsList()) {
      result.add(sparkRow(row, frame.schema(), false));
    }
    result.sort(null);
    return result;
  }

  private static String sparkRow(Row row, StructType type, boolean braces) {
    StringBuilder sb = new StringBuilder(braces ? "{" : "");
    StructField[] fields = type.fields();
    for (int i = 0; i < fields.length; i++) {
      sb.append(i == 0 ? "" : ",").append(sparkValue(row.get(i), fields[i].dataType()));
    }
    return sb.append(braces ? "}" : "").toString();
  }

  private static String sparkValue(Object value, org.apache.spark.sql.types.DataType type) {
    if (value == null) {
      return "null";
    } else if (type instanceof StructType struct) {
      return sparkRow((Row) value, struct, true);
    } else if (type instanceof org.apache.spark.sql.types.ArrayType array) {
      List<String> parts = new ArrayList<>();
      for (Object element :
          scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) value)) {
        parts.add(sparkValue(element, array.elementType()));
      }
      return "[" + String.join(",", parts) + "]";
    } else if (type instanceof org.apache.spark.sql.types.MapType map) {
      Map<String, String> sorted = new TreeMap<>();
      scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Map<?, ?>) value)
          .forEach(
              (k, v) -> sorted.put(sparkValue(k, map.keyType()), sparkValue(v, map.valueType())));
      return sorted.toString();
    }
    return String.valueOf(value);
  }

  private List<String> paimonRendered(String db, String name) throws Exception {
    Table table = paimon.table(db, name);
    RowType type = table.rowType();
    ReadBuilder builder = table.newReadBuilder();
    List<String> result = new ArrayList<>();
    try (RecordReader<InternalRow> reader =
        builder.newRead().createReader(builder.newScan().plan())) {
      reader.forEachRemaining(row -> result.add(paimonRow(row, type, false)));
    }
    result.sort(null);
    return result;
  }

  private static String paimonRow(InternalRow row, RowType type, boolean braces) {
    StringBuilder sb = new StringBuilder(braces ? "{" : "");
    List<DataField> fields = type.getFields();
    for (int i = 0; i < fields.size(); i++) {
      Object value = InternalRow.createFieldGetter(fields.get(i).type(), i).getFieldOrNull(row);
      sb.append(i == 0 ? "" : ",").append(paimonValue(value, fields.get(i).type()));
    }
    return sb.append(braces ? "}" : "").toString();
  }

  private static String paimonValue(Object value, org.apache.paimon.types.DataType type) {
    if (value == null) {
      return "null";
    } else if (type instanceof RowType row) {
      return paimonRow((InternalRow) value, row, true);
    } else if (type instanceof ArrayType array) {
      InternalArray elements = (InternalArray) value;
      InternalArray.ElementGetter getter =
          InternalArray.createElementGetter(array.getElementType());
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < elements.size(); i++) {
        parts.add(paimonValue(getter.getElementOrNull(elements, i), array.getElementType()));
      }
      return "[" + String.join(",", parts) + "]";
    } else if (type instanceof MapType map) {
      InternalMap entries = (InternalMap) value;
      InternalArray.ElementGetter keys = InternalArray.createElementGetter(map.getKeyType());
      InternalArray.ElementGetter values = InternalArray.createElementGetter(map.getValueType());
      Map<String, String> sorted = new TreeMap<>();
      for (int i = 0; i < entries.size(); i++) {
        sorted.put(
            paimonValue(keys.getElementOrNull(entries.keyArray(), i), map.getKeyType()),
            paimonValue(values.getElementOrNull(entries.valueArray(), i), map.getValueType()));
      }
      return sorted.toString();
    } else if (value instanceof Timestamp ts) {
      return ts.toLocalDateTime().toString();
    }
    return String.valueOf(value);
  }
}

package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * The aggregation merge engine's field functions through SQL: exact rows after several commits and
 * again after a full compaction, each function's options, retraction rows written through the
 * engine, and the CREATE TABLE errors.
 */
class AggregationIT extends SparkTestBase {
  private static final String DB = "agg";

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  private void create(String table, String columns, String properties) {
    sql(
        "CREATE TABLE %s.%s (%s) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2',"
            + " 'merge-engine' = 'aggregation'%s)",
        DB, table, columns, properties.isEmpty() ? "" : ", " + properties);
  }

  /** The rows of {@code select} over the table, before and after a full compaction. */
  private void assertRowsBeforeAndAfterCompaction(String table, String select, String... rows) {
    String query = String.format(select, DB + "." + table);
    assertThat(rows(query)).as("merged on read").containsExactly(rows);
    sql("CALL sys.compact(table => '%s.%s')", DB, table);
    assertThat(rows(query)).as("after full compaction").containsExactly(rows);
  }

  @Test
  void sumAndProductOverEveryNumericType() {
    create(
        "numbers",
        "id INT, t TINYINT, s SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(6,2),"
            + " p BIGINT, pm DECIMAL(6,2)",
        "'fields.t.aggregate-function' = 'sum', 'fields.s.aggregate-function' = 'sum',"
            + " 'fields.i.aggregate-function' = 'sum', 'fields.b.aggregate-function' = 'sum',"
            + " 'fields.f.aggregate-function' = 'sum', 'fields.d.aggregate-function' = 'sum',"
            + " 'fields.m.aggregate-function' = 'sum', 'fields.p.aggregate-function' ="
            + " 'product', 'fields.pm.aggregate-function' = 'product'");
    sql(
        "INSERT INTO %s.numbers VALUES (1, 1Y, 10S, 100, 1000L, 1.5F, 2.5D, 1.10BD, 2L, 1.50BD),"
            + " (2, 5Y, 5S, 5, 5L, 0.5F, 0.5D, 0.01BD, 7L, 2.00BD)",
        DB);
    sql(
        "INSERT INTO %s.numbers VALUES (1, 2Y, 20S, 200, 2000L, 1.0F, 1.0D, 2.25BD, 3L, 2.00BD),"
            + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
        DB);
    sql(
        "INSERT INTO %s.numbers VALUES (1, 3Y, 30S, 300, 3000L, 0.25F, 0.5D, 3.00BD, 4L,"
            + " 0.50BD)",
        DB);
    assertRowsBeforeAndAfterCompaction(
        "numbers",
        "SELECT * FROM %s",
        "1,6,60,600,6000,2.75,4.0,6.35,24,1.50",
        "2,5,5,5,5,0.5,0.5,0.01,7,2.00");
  }

  @Test
  void decimalSumOverflowBecomesNull() {
    create("overflow", "id INT, m DECIMAL(4,2)", "'fields.m.aggregate-function' = 'sum'");
    sql("INSERT INTO %s.overflow VALUES (1, 60.00BD), (2, 1.00BD)", DB);
    sql("INSERT INTO %s.overflow VALUES (1, 50.00BD), (2, 2.00BD)", DB);
    assertRowsBeforeAndAfterCompaction("overflow", "SELECT * FROM %s", "1,null", "2,3.00");
  }

  @Test
  void maxAndMinOverEveryComparableType() {
    create(
        "extremes",
        "id INT, c CHAR(3), v VARCHAR(5), s STRING, m DECIMAL(5,1), i INT, d DOUBLE, dt DATE,"
            + " ts TIMESTAMP, ntz TIMESTAMP_NTZ, lo INT, lodt DATE",
        "'fields.c.aggregate-function' = 'max', 'fields.v.aggregate-function' = 'max',"
            + " 'fields.s.aggregate-function' = 'max', 'fields.m.aggregate-function' = 'max',"
            + " 'fields.i.aggregate-function' = 'max', 'fields.d.aggregate-function' = 'max',"
            + " 'fields.dt.aggregate-function' = 'max', 'fields.ts.aggregate-function' = 'max',"
            + " 'fields.ntz.aggregate-function' = 'max', 'fields.lo.aggregate-function' = 'min',"
            + " 'fields.lodt.aggregate-function' = 'min'");
    sql(
        "INSERT INTO %s.extremes VALUES (1, 'b', 'kiwi', 'pear', 1.5BD, 3, -1.0D,"
            + " DATE'2026-01-02', TIMESTAMP'2026-01-01 10:00:00', TIMESTAMP_NTZ'2026-01-01"
            + " 10:00:00', 5, DATE'2026-03-01')",
        DB);
    sql(
        "INSERT INTO %s.extremes VALUES (1, 'c', 'apple', 'apple', -2.0BD, 9, 4.5D,"
            + " DATE'2025-12-31', TIMESTAMP'2026-01-01 12:00:00', TIMESTAMP_NTZ'2025-01-01"
            + " 00:00:00', -7, DATE'2026-01-01')",
        DB);
    sql(
        "INSERT INTO %s.extremes VALUES (1, 'a', NULL, 'zebra', 9.9BD, NULL, 0.0D, NULL, NULL,"
            + " NULL, 0, NULL)",
        DB);
    assertRowsBeforeAndAfterCompaction(
        "extremes",
        "SELECT id, c, v, s, m, i, d, CAST(dt AS STRING), CAST(ts AS STRING), CAST(ntz AS"
            + " STRING), lo, CAST(lodt AS STRING) FROM %s",
        "1,c  ,kiwi,zebra,9.9,9,4.5,2026-01-02,2026-01-01 12:00:00,2026-01-01 10:00:00,-7,"
            + "2026-01-01");
  }

  @Test
  void firstAndLastValues() {
    create(
        "values_",
        "id INT, fv STRING, fnn STRING, fnn_alias STRING, lv STRING, lnn STRING, dflt STRING",
        "'fields.fv.aggregate-function' = 'first_value',"
            + " 'fields.fnn.aggregate-function' = 'first_non_null_value',"
            + " 'fields.fnn_alias.aggregate-function' = 'first_not_null_value',"
            + " 'fields.lv.aggregate-function' = 'last_value',"
            + " 'fields.lnn.aggregate-function' = 'last_non_null_value'");
    sql("INSERT INTO %s.values_ VALUES (1, NULL, NULL, NULL, 'a', 'a', 'a')", DB);
    sql("INSERT INTO %s.values_ VALUES (1, 'b', 'b', 'b', 'b', 'b', 'b')", DB);
    sql("INSERT INTO %s.values_ VALUES (1, 'c', 'c', 'c', NULL, NULL, NULL)", DB);
    // Columns without a function use last_non_null_value.
    assertRowsBeforeAndAfterCompaction("values_", "SELECT * FROM %s", "1,null,b,b,null,b,b");
  }

  @Test
  void defaultAggregateFunctionAppliesToColumnsWithoutOne() {
    create(
        "defaults",
        "id INT, a BIGINT, b BIGINT, c STRING",
        "'fields.default-aggregate-function' = 'sum', 'fields.c.aggregate-function' ="
            + " 'listagg'");
    sql("INSERT INTO %s.defaults VALUES (1, 1L, 10L, 'x')", DB);
    sql("INSERT INTO %s.defaults VALUES (1, 2L, NULL, 'y')", DB);
    assertRowsBeforeAndAfterCompaction("defaults", "SELECT * FROM %s", "1,3,10,x,y");
  }

  @Test
  void listaggWithDefaultAndCustomDelimiterAndDistinct() {
    create(
        "lists",
        "id INT, l STRING, pipe STRING, uniq STRING",
        "'fields.l.aggregate-function' = 'listagg', 'fields.pipe.aggregate-function' ="
            + " 'listagg', 'fields.pipe.list-agg-delimiter' = ' | ',"
            + " 'fields.uniq.aggregate-function' = 'listagg', 'fields.uniq.distinct' = 'true',"
            + " 'fields.uniq.list-agg-delimiter' = ';'");
    sql("INSERT INTO %s.lists VALUES (1, 'a', 'a', 'a;b')", DB);
    sql("INSERT INTO %s.lists VALUES (1, NULL, 'b', 'b;c')", DB);
    sql("INSERT INTO %s.lists VALUES (1, 'c', '', 'a')", DB);
    assertRowsBeforeAndAfterCompaction("lists", "SELECT * FROM %s", "1,a,c,a | b,a;b;c");
  }

  @Test
  void boolAndAndBoolOr() {
    create(
        "bools",
        "id INT, all_ BOOLEAN, any_ BOOLEAN",
        "'fields.all_.aggregate-function' = 'bool_and', 'fields.any_.aggregate-function' ="
            + " 'bool_or'");
    sql("INSERT INTO %s.bools VALUES (1, true, false), (2, true, false)", DB);
    sql("INSERT INTO %s.bools VALUES (1, false, NULL), (2, NULL, false)", DB);
    sql("INSERT INTO %s.bools VALUES (1, true, true), (2, true, false)", DB);
    assertRowsBeforeAndAfterCompaction("bools", "SELECT * FROM %s", "1,false,true", "2,true,false");
  }

  private static String rbm32(int... values) {
    RoaringBitmap bitmap = RoaringBitmap.bitmapOf(values);
    ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(out);
    return "X'" + HexFormat.of().formatHex(out.array()) + "'";
  }

  private static String rbm64(long... values) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      Roaring64Bitmap.bitmapOf(values).serialize(out);
    }
    return "X'" + HexFormat.of().formatHex(bytes.toByteArray()) + "'";
  }

  @Test
  void roaringBitmapsMergeByOr() throws IOException {
    create(
        "bitmaps",
        "id INT, b32 BINARY, b64 BINARY",
        "'fields.b32.aggregate-function' = 'rbm32', 'fields.b64.aggregate-function' = 'rbm64'");
    long big = 1L << 40;
    sql("INSERT INTO %s.bitmaps VALUES (1, %s, %s)", DB, rbm32(1, 2), rbm64(1L));
    sql("INSERT INTO %s.bitmaps VALUES (1, %s, NULL)", DB, rbm32(2, 100_000));
    sql("INSERT INTO %s.bitmaps VALUES (1, NULL, %s)", DB, rbm64(big));
    for (int pass = 0; pass < 2; pass++) {
      List<Object[]> rows = sql("SELECT b32, b64 FROM %s.bitmaps WHERE id = 1", DB);
      assertThat(rows).hasSize(1);
      RoaringBitmap b32 = new RoaringBitmap();
      b32.deserialize(ByteBuffer.wrap((byte[]) rows.get(0)[0]));
      assertThat(b32.toArray()).containsExactly(1, 2, 100_000);
      Roaring64Bitmap b64 = new Roaring64Bitmap();
      b64.deserialize(new DataInputStream(new ByteArrayInputStream((byte[]) rows.get(0)[1])));
      assertThat(b64.toArray()).containsExactly(1L, big);
      sql("CALL sys.compact(table => '%s.bitmaps')", DB);
    }
  }

  @Test
  void collectWithAndWithoutDistinctAndMergeMap() {
    create(
        "collections",
        "id INT, all_ ARRAY<INT>, uniq ARRAY<STRING>, attrs MAP<STRING, INT>",
        "'fields.all_.aggregate-function' = 'collect', 'fields.uniq.aggregate-function' ="
            + " 'collect', 'fields.uniq.distinct' = 'true', 'fields.attrs.aggregate-function' ="
            + " 'merge_map'");
    sql(
        "INSERT INTO %s.collections VALUES (1, array(1, 2), array('a', 'b'), map('x', 1, 'y',"
            + " 2))",
        DB);
    sql("INSERT INTO %s.collections VALUES (1, NULL, array('b', 'c', 'c'), NULL)", DB);
    sql("INSERT INTO %s.collections VALUES (1, array(2, 3), array('a'), map('y', 20, 'z', 3))", DB);
    assertRowsBeforeAndAfterCompaction(
        "collections",
        "SELECT id, CAST(all_ AS STRING), CAST(uniq AS STRING), CAST(attrs AS STRING) FROM %s",
        "1,[1, 2, 2, 3],[a, b, c],{x -> 1, y -> 20, z -> 3}");
  }

  /** The seed example of issue 5: a wide table from orders and sub-orders. */
  @Test
  void nestedUpdateBuildsTheOrderWideTable() {
    sql("CREATE TABLE %s.orders (order_id INT, user_name STRING, address STRING)", DB);
    sql(
        "CREATE TABLE %s.sub_orders (order_id INT, sub_order_id INT, product_name STRING,"
            + " price BIGINT)",
        DB);
    sql(
        "CREATE TABLE %s.order_wide (order_id INT, user_name STRING, address STRING,"
            + " sub_orders ARRAY<STRUCT<sub_order_id: INT, product_name: STRING, price: BIGINT>>)"
            + " TBLPROPERTIES ('primary-key' = 'order_id', 'bucket' = '1', 'merge-engine' ="
            + " 'aggregation', 'fields.sub_orders.aggregate-function' = 'nested_update',"
            + " 'fields.sub_orders.nested-key' = 'sub_order_id')",
        DB);
    sql("INSERT INTO %s.orders VALUES (1, 'Alice', 'add1'), (2, 'Bob', 'add2')", DB);
    sql(
        "INSERT INTO %s.sub_orders VALUES (1, 11, 'apple', 10), (1, 12, 'banana', 20),"
            + " (2, 21, 'cherry', 30), (2, 22, 'peach', 40)",
        DB);
    String wide =
        "INSERT INTO %1$s.order_wide SELECT order_id, user_name, address, CAST(NULL AS"
            + " ARRAY<STRUCT<sub_order_id: INT, product_name: STRING, price: BIGINT>>) FROM"
            + " %1$s.orders UNION ALL SELECT order_id, CAST(NULL AS STRING), CAST(NULL AS"
            + " STRING), collect_list(named_struct('sub_order_id', sub_order_id,"
            + " 'product_name', product_name, 'price', price)) FROM %1$s.sub_orders %2$s GROUP BY"
            + " order_id";
    sql(wide, DB, "");
    sql("INSERT INTO %s.sub_orders VALUES (2, 21, 'cherry', 50)", DB);
    // The later commit carries only the changed sub-order, as a change stream would.
    sql(
        "INSERT INTO %1$s.order_wide SELECT order_id, CAST(NULL AS STRING), CAST(NULL AS"
            + " STRING), collect_list(named_struct('sub_order_id', sub_order_id,"
            + " 'product_name', product_name, 'price', price)) FROM %1$s.sub_orders WHERE"
            + " sub_order_id = 21 AND price = 50 GROUP BY order_id",
        DB);
    String select =
        "SELECT order_id, user_name, address, CAST(sort_array(sub_orders) AS STRING) FROM %s";
    assertRowsBeforeAndAfterCompaction(
        "order_wide",
        select,
        "1,Alice,add1,[{11, apple, 10}, {12, banana, 20}]",
        "2,Bob,add2,[{21, cherry, 50}, {22, peach, 40}]");
  }

  @Test
  void nestedUpdateKeepsPlacesAndAppendsNewKeys() {
    create(
        "places",
        "id INT, items ARRAY<STRUCT<k: INT, v: STRING>>",
        "'fields.items.aggregate-function' = 'nested_update', 'fields.items.nested-key' = 'k'");
    sql("INSERT INTO %s.places VALUES (1, array(named_struct('k', 5, 'v', 'e')))", DB);
    sql("INSERT INTO %s.places VALUES (1, array(named_struct('k', 1, 'v', 'a')))", DB);
    sql("INSERT INTO %s.places VALUES (1, array(named_struct('k', 5, 'v', 'E')))", DB);
    assertRowsBeforeAndAfterCompaction(
        "places", "SELECT id, CAST(items AS STRING) FROM %s", "1,[{5, E}, {1, a}]");
  }

  @Test
  void nestedPartialUpdateMergesNonNullFieldsOfElements() {
    create(
        "partial",
        "id INT, items ARRAY<STRUCT<k: INT, name: STRING, qty: INT>>",
        "'fields.items.aggregate-function' = 'nested_partial_update',"
            + " 'fields.items.nested-key' = 'k'");
    sql(
        "INSERT INTO %s.partial VALUES (1, array(named_struct('k', 1, 'name', 'a', 'qty',"
            + " CAST(NULL AS INT))))",
        DB);
    sql(
        "INSERT INTO %s.partial VALUES (1, array(named_struct('k', 1, 'name', CAST(NULL AS"
            + " STRING), 'qty', 10), named_struct('k', 2, 'name', 'b', 'qty', 2)))",
        DB);
    sql(
        "INSERT INTO %s.partial VALUES (1, array(named_struct('k', 2, 'name', CAST(NULL AS"
            + " STRING), 'qty', 20)))",
        DB);
    assertRowsBeforeAndAfterCompaction(
        "partial",
        "SELECT id, CAST(sort_array(items) AS STRING) FROM %s",
        "1,[{1, a, 10}, {2, b, 20}]");
  }

  // ---- retraction: -U/-D rows written through the engine, as a change stream would ----

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath(DB, table).toUri()), DB + "." + table);
  }

  /** Commits {@code rows} (internal values), row i of kind {@code kinds[i]}, in one commit. */
  private void writeEngineRows(String table, RowKind[] kinds, InternalRow... rows) {
    FileStoreTable engine = engineTable(table);
    OptionalLong latest = engine.snapshotManager().latestSnapshotId();
    try (TableWrite write =
        engine.newWrite(latest.isPresent() ? latest.getAsLong() : null, false)) {
      for (int i = 0; i < rows.length; i++) {
        write.write(rows[i], kinds[i]);
      }
      List<CommitMessage> messages = write.prepareCommit();
      engine.newCommit("aggregation-it").commit(messages, System.nanoTime());
    }
  }

  private static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  private static UTF8String str(String value) {
    return UTF8String.fromString(value);
  }

  private static ArrayData array(Object... values) {
    return new GenericArrayData(values);
  }

  private static MapData map(Object key, Object value) {
    return new ArrayBasedMapData(array(key), array(value));
  }

  private void createRetractTable(String table) {
    create(
        table,
        "id INT, total BIGINT, prod INT, tags ARRAY<STRING>, attrs MAP<STRING, INT>,"
            + " items ARRAY<STRUCT<k: INT, v: STRING>>, lv STRING, lnn STRING",
        "'fields.total.aggregate-function' = 'sum', 'fields.prod.aggregate-function' ="
            + " 'product', 'fields.tags.aggregate-function' = 'collect',"
            + " 'fields.attrs.aggregate-function' = 'merge_map',"
            + " 'fields.items.aggregate-function' = 'nested_update', 'fields.items.nested-key' ="
            + " 'k', 'fields.lv.aggregate-function' = 'last_value'");
  }

  private static final String RETRACT_SELECT =
      "SELECT id, total, prod, CAST(tags AS STRING), CAST(attrs AS STRING), CAST(items AS"
          + " STRING), lv, lnn FROM %s";

  /** The first version of key 1, inserted and later retracted. */
  private static InternalRow firstVersion() {
    return row(
        1,
        10L,
        6,
        array(str("a"), str("b")),
        map(str("x"), 1),
        array(row(2, str("two"))),
        str("l"),
        str("n"));
  }

  /**
   * Every retractable function takes a -U/-D row's values back out: sum subtracts, product divides,
   * collect removes one occurrence per element, merge_map and nested_update remove the keys,
   * last_value clears, last_non_null_value clears unless the retracted value is null.
   */
  @Test
  void retractableFunctionsApplyUpdateBeforeAndDeleteRows() {
    createRetractTable("retract");
    // One engine write: the versions meet in the write buffer, then again on read and compaction.
    writeEngineRows(
        "retract",
        new RowKind[] {
          RowKind.INSERT, RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.INSERT, RowKind.DELETE
        },
        firstVersion(),
        row(
            1,
            7L,
            2,
            array(str("c"), str("a")),
            map(str("z"), 3),
            array(row(1, str("one"))),
            str("l2"),
            str("n2")),
        firstVersion(),
        row(2, 5L, 2, array(str("q")), map(str("q"), 1), array(), str("keep"), str("keep")),
        row(2, 1L, 2, null, null, null, str("keep"), null));
    assertRowsBeforeAndAfterCompaction(
        "retract",
        RETRACT_SELECT,
        "1,7,2,[c, a],{z -> 3},[{1, one}],null,null",
        "2,4,1,[q],{q -> 1},[],null,keep");
  }

  /** A lone sum retraction in a later commit subtracts from the committed total. */
  @Test
  void sumRetractionInALaterCommit() {
    createRetractTable("retract_sum");
    sql("INSERT INTO %s.retract_sum (id, total) VALUES (1, 10L), (2, 4L)", DB);
    sql("INSERT INTO %s.retract_sum (id, total) VALUES (1, 7L)", DB);
    writeEngineRows(
        "retract_sum",
        new RowKind[] {RowKind.UPDATE_BEFORE, RowKind.DELETE},
        row(1, 10L, null, null, null, null, null, null),
        row(2, 1L, null, null, null, null, null, null));
    assertRowsBeforeAndAfterCompaction("retract_sum", "SELECT id, total FROM %s", "1,7", "2,3");
  }

  /**
   * A lone retraction committed after the rows it retracts, for every retractable function. The
   * write buffer must keep a key's single -U/-D row as it is (as Paimon's reducer wrapper does) so
   * that reads and compaction retract it from the older files.
   */
  @Test
  void everyRetractableFunctionRetractsInALaterCommit() {
    createRetractTable("retract_later");
    writeEngineRows("retract_later", new RowKind[] {RowKind.INSERT}, firstVersion());
    writeEngineRows(
        "retract_later",
        new RowKind[] {RowKind.INSERT},
        row(
            1,
            7L,
            2,
            array(str("c"), str("a")),
            map(str("z"), 3),
            array(row(1, str("one"))),
            str("l2"),
            str("n2")));
    writeEngineRows("retract_later", new RowKind[] {RowKind.UPDATE_BEFORE}, firstVersion());
    assertRowsBeforeAndAfterCompaction(
        "retract_later", RETRACT_SELECT, "1,7,2,[c, a],{z -> 3},[{1, one}],null,null");
  }

  @Test
  void aNonRetractableFunctionFailsOnRetractionUnlessIgnoreRetract() {
    create(
        "noretract",
        "id INT, hi INT, lo INT",
        "'fields.hi.aggregate-function' = 'max', 'fields.lo.aggregate-function' = 'min',"
            + " 'fields.lo.ignore-retract' = 'true'");
    sql("INSERT INTO %s.noretract VALUES (1, 5, 5)", DB);
    // Fails when the -U meets the merge function: in the write buffer or on read.
    assertThatThrownBy(
            () -> {
              writeEngineRows("noretract", new RowKind[] {RowKind.UPDATE_BEFORE}, row(1, 5, 5));
              sql("SELECT * FROM %s.noretract", DB);
            })
        .hasStackTraceContaining("cannot apply a -U row: column 'hi' uses aggregate function 'max'")
        .hasStackTraceContaining("'fields.hi.ignore-retract' = 'true'");
    sql("ALTER TABLE %s.noretract SET TBLPROPERTIES ('fields.hi.ignore-retract' = 'true')", DB);
    writeEngineRows("noretract", new RowKind[] {RowKind.UPDATE_BEFORE}, row(1, 5, 5));
    sql("INSERT INTO %s.noretract VALUES (1, 3, 3)", DB);
    assertRowsBeforeAndAfterCompaction("noretract", "SELECT * FROM %s", "1,5,3");
  }

  // ---- bad input at CREATE TABLE ----

  private void assertCreateFails(String columns, String properties, String... messageParts) {
    String table = "bad_" + Math.abs((columns + properties).hashCode());
    var thrown =
        assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE %s.%s (%s) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'merge-engine' = 'aggregation', %s)",
                    DB, table, columns, properties));
    for (String part : messageParts) {
      thrown.hasMessageContaining(part);
    }
    assertThat(sql("SHOW TABLES IN %s LIKE '%s'", DB, table)).isEmpty();
  }

  @Test
  void createTableRejectsAFunctionOnAnUnsupportedType() {
    assertCreateFails(
        "id INT, name STRING",
        "'fields.name.aggregate-function' = 'sum'",
        "Aggregate function 'sum' does not support column 'name' of type STRING in table"
            + " agg.bad_",
        "it supports DECIMAL, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE");
    assertCreateFails(
        "id INT, flag BOOLEAN", "'fields.flag.aggregate-function' = 'max'", "'max'", "BOOLEAN");
    assertCreateFails(
        "id INT, n INT",
        "'fields.n.aggregate-function' = 'listagg'",
        "'listagg'",
        "STRING (and VARCHAR)");
    assertCreateFails(
        "id INT, s STRING", "'fields.s.aggregate-function' = 'bool_or'", "supports BOOLEAN");
    assertCreateFails(
        "id INT, s STRING", "'fields.s.aggregate-function' = 'rbm32'", "supports BINARY");
    assertCreateFails(
        "id INT, a ARRAY<INT>",
        "'fields.a.aggregate-function' = 'nested_update'",
        "supports ARRAY<STRUCT<...>>");
    assertCreateFails(
        "id INT, m MAP<STRING, INT>",
        "'fields.m.aggregate-function' = 'collect'",
        "supports ARRAY.");
    assertCreateFails(
        "id INT, a ARRAY<INT>", "'fields.a.aggregate-function' = 'merge_map'", "supports MAP.");
    assertCreateFails(
        "id INT, n INT",
        "'fields.default-aggregate-function' = 'bool_and'",
        "'bool_and' does not support column 'n' of type INT");
  }

  @Test
  void createTableRejectsAnUnknownFunction() {
    assertCreateFails(
        "id INT, n INT", "'fields.n.aggregate-function' = 'median'", "'median'", "'n'");
  }

  @Test
  void createTableRejectsBadNestedKeys() {
    assertCreateFails(
        "id INT, items ARRAY<STRUCT<k: INT, v: STRING>>",
        "'fields.items.aggregate-function' = 'nested_update', 'fields.items.nested-key' ="
            + " 'sku'",
        "Option 'fields.items.nested-key' of table agg.bad_",
        "names 'sku', which is not a field of the elements of column 'items'");
    assertCreateFails(
        "id INT, items ARRAY<STRUCT<k: INT, v: STRING>>",
        "'fields.items.aggregate-function' = 'nested_partial_update'",
        "needs the key of the array elements. Fix: set 'fields.items.nested-key'");
    assertCreateFails(
        "id INT, n INT",
        "'fields.n.aggregate-function' = 'sum', 'fields.n.nested-key' = 'k'",
        "Option 'fields.n.nested-key' on table agg.bad_",
        "column 'n' has type INT, but a nested key needs an ARRAY<STRUCT<...>> column");
  }

  @Test
  void createTableRejectsABadFlagValue() {
    assertCreateFails(
        "id INT, a ARRAY<INT>",
        "'fields.a.aggregate-function' = 'collect', 'fields.a.distinct' = 'yes'",
        "Invalid value 'yes' for option 'fields.a.distinct'",
        "expected true or false");
  }
}

package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.paimon.utils.RoaringBitmap64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables written by Apache Paimon 1.3.1's own Java API, in the same warehouse, read with Basalt
 * SQL: Paimon's BinaryRow bytes in manifests (keys, partitions, stats) must decode as Paimon meant
 * them.
 */
class PaimonWrittenTableIT extends SparkTestBase {
  private static final long T0 = 1_728_432_000_123L; // 2024-10-09 00:00:00.123 UTC

  private Catalog paimon;

  @BeforeAll
  void openPaimonCatalog() throws Exception {
    Options options = new Options();
    options.set("warehouse", warehouse.toUri().toString());
    options.set("cache-enabled", "false");
    paimon = CatalogFactory.createCatalog(CatalogContext.create(options));
    paimon.createDatabase("pw", true);
  }

  private void write(String table, GenericRow... rows) throws Exception {
    Table t = paimon.getTable(Identifier.create("pw", table));
    BatchWriteBuilder builder = t.newBatchWriteBuilder();
    // first-row and deletion-vector writes look keys up through local disk
    try (BatchTableWrite write =
            (BatchTableWrite)
                builder
                    .newWrite()
                    .withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
        BatchTableCommit commit = builder.newCommit()) {
      for (GenericRow row : rows) {
        write.write(row);
      }
      commit.commit(write.prepareCommit());
    }
  }

  private static GenericRow row(int id, long millis, String v) {
    return GenericRow.of(id, Timestamp.fromEpochMillis(millis), BinaryString.fromString(v));
  }

  @Test
  void readsATableWithATimestamp3BucketKey() throws Exception {
    paimon.createTable(
        Identifier.create("pw", "ts3"),
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("ts", DataTypes.TIMESTAMP(3).notNull())
            .column("v", DataTypes.STRING())
            .primaryKey("id", "ts")
            .option("bucket", "2")
            .option("bucket-key", "ts")
            .build(),
        false);
    write("ts3", row(1, T0, "a"), row(2, T0 + 1000, "b"), row(3, T0 - 86_400_000L, "c"));
    write("ts3", row(2, T0 + 1000, "b2"), row(4, T0 + 5, "d"));

    assertThat(rows("SELECT id, CAST(ts AS STRING), v FROM pw.ts3"))
        .containsExactly(
            "1,2024-10-09 00:00:00.123,a",
            "2,2024-10-09 00:00:01.123,b2",
            "3,2024-10-08 00:00:00.123,c",
            "4,2024-10-09 00:00:00.128,d");
    // filters prune with Paimon's key and value stats
    assertThat(rows("SELECT id FROM pw.ts3 WHERE ts > TIMESTAMP_NTZ '2024-10-09 00:00:00.125'"))
        .containsExactly("2", "4");
    assertThat(rows("SELECT id, v FROM pw.ts3 WHERE id = 2")).containsExactly("2,b2");
    // Basalt's own bucket for a row agrees with where Paimon put it
    List<String> buckets = rows("SELECT id, __paimon_bucket FROM pw.ts3");
    sql("CALL sys.compact(table => 'pw.ts3')");
    assertThat(rows("SELECT id, __paimon_bucket FROM pw.ts3")).isEqualTo(buckets);
    assertThat(rows("SELECT id, v FROM pw.ts3 WHERE id = 2")).containsExactly("2,b2");
  }

  private void create(String table, Schema.Builder schema) throws Exception {
    paimon.createTable(Identifier.create("pw", table), schema.build(), false);
  }

  private static Schema.Builder idValue() {
    return Schema.newBuilder()
        .column("id", DataTypes.INT().notNull())
        .column("v", DataTypes.STRING());
  }

  private static GenericRow row(int id, String v) {
    return GenericRow.of(id, BinaryString.fromString(v));
  }

  /** Postponed-bucket files wait in bucket -2 for a compaction; no batch read opens them. */
  @Test
  void postponedBucketFilesAreInvisible() throws Exception {
    create("postponed", idValue().primaryKey("id").option("bucket", "-2"));
    write("postponed", row(1, "a"), row(2, "b"));
    try (PaimonInterop reader = new PaimonInterop(warehouse)) {
      assertThat(reader.rows("pw", "postponed")).isEmpty();
    }
    assertThat(filesUnder(tablePath("pw", "postponed")))
        .anyMatch(f -> f.startsWith("bucket-postpone/"));
    assertThat(rows("SELECT * FROM pw.postponed")).isEmpty();
    assertThat(rows("SELECT count(*) FROM pw.postponed")).containsExactly("0");
    // Basalt writes it now; its rows queue behind Paimon's pending ones (PostponedBucketIT)
    sql("INSERT INTO pw.postponed VALUES (3, 'c')");
    assertThat(rows("SELECT * FROM pw.postponed")).isEmpty();
  }

  /**
   * Paimon writes a dynamic-bucket table, Basalt adds and updates keys through Paimon's HASH index,
   * and Paimon's own assigner then reads Basalt's index: each engine sends a key to the bucket the
   * other gave it, and neither sees a key twice.
   */
  @Test
  void dynamicBucketTablesAreWrittenByBothEngines() throws Exception {
    create("dynamic", idValue().primaryKey("id").option("bucket", "-1"));
    // outside Flink and Spark, Paimon's writer takes the bucket a dynamic-bucket row goes to
    Table t = paimon.getTable(Identifier.create("pw", "dynamic"));
    BatchWriteBuilder builder = t.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit()) {
      write.write(row(1, "a"), 0);
      write.write(row(2, "b"), 1);
      write.write(row(2, "b2"), 1);
      commit.commit(write.prepareCommit());
    }
    assertThat(paimonRows("dynamic")).containsExactly("1,a", "2,b2");
    readsAsPaimon("dynamic");

    sql("INSERT INTO pw.dynamic VALUES (2, 'b3'), (3, 'c'), (4, 'd')");
    assertThat(paimonRows("dynamic")).containsExactly("1,a", "2,b3", "3,c", "4,d");
    readsAsPaimon("dynamic");
    // key 2 stayed in the bucket Paimon gave it
    assertThat(rows("SELECT id, __paimon_bucket FROM pw.dynamic WHERE id <= 2"))
        .containsExactly("1,0", "2,1");

    // Paimon's assigner, loading the HASH index Basalt wrote, finds Basalt's buckets
    org.apache.paimon.table.FileStoreTable store =
        (org.apache.paimon.table.FileStoreTable)
            paimon.getTable(Identifier.create("pw", "dynamic"));
    org.apache.paimon.index.HashBucketAssigner assigner =
        new org.apache.paimon.index.HashBucketAssigner(
            store.snapshotManager(),
            "check",
            store.store().newIndexFileHandler(),
            1,
            1,
            0,
            2_000_000L,
            -1);
    org.apache.paimon.table.sink.RowPartitionKeyExtractor keys =
        new org.apache.paimon.table.sink.RowPartitionKeyExtractor(store.schema());
    for (Object[] basalt : sql("SELECT id, __paimon_bucket FROM pw.dynamic")) {
      GenericRow key = row((Integer) basalt[0], "");
      int hash = keys.trimmedPrimaryKey(key).hashCode();
      assertThat(assigner.assign(org.apache.paimon.data.BinaryRow.EMPTY_ROW, hash))
          .as("Paimon's bucket of key %s", basalt[0])
          .isEqualTo(basalt[1]);
    }

    // and Paimon writes on top of Basalt's index: an update of key 3 into its bucket
    int bucketOf3 = (Integer) sql("SELECT __paimon_bucket FROM pw.dynamic WHERE id = 3").get(0)[0];
    t = paimon.getTable(Identifier.create("pw", "dynamic"));
    builder = t.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit()) {
      write.write(row(3, "c2"), bucketOf3);
      commit.commit(write.prepareCommit());
    }
    sql("INSERT INTO pw.dynamic VALUES (3, 'c3'), (5, 'e')");
    assertThat(rows("SELECT * FROM pw.dynamic"))
        .containsExactly("1,a", "2,b3", "3,c3", "4,d", "5,e");
    assertThat(paimonRows("dynamic")).containsExactly("1,a", "2,b3", "3,c3", "4,d", "5,e");
  }

  @Test
  void firstRowTableReadsAsPaimonReadsIt() throws Exception {
    create(
        "first",
        idValue().primaryKey("id").option("bucket", "2").option("merge-engine", "first-row"));
    write("first", row(1, "a1"), row(2, "b1"));
    write("first", row(1, "a2"), row(3, "c1"));
    try (PaimonInterop reader = new PaimonInterop(warehouse)) {
      List<String> expected = reader.rows("pw", "first");
      assertThat(expected).containsExactly("1,a1", "2,b1", "3,c1");
      assertThat(rows("SELECT * FROM pw.first")).isEqualTo(expected);
    }
  }

  @Test
  void dataFilesInOrcAndAvroAreRead() throws Exception {
    for (String format : new String[] {"avro", "orc"}) {
      String table = "format_" + format;
      create(table, idValue().option("file.format", format));
      write(table, row(1, "a"));
      // FileFormatsInteropIT covers every type and both directions
      assertThat(rows("SELECT * FROM pw.%s", table)).as(format).containsExactly("1,a");
    }
  }

  private static BinaryString s(String value) {
    return BinaryString.fromString(value);
  }

  /** Paimon's own read of {@code table}, rendered like {@link #rows}. */
  private List<String> paimonRows(String table) throws Exception {
    try (PaimonInterop reader = new PaimonInterop(warehouse)) {
      return reader.rows("pw", table);
    }
  }

  /** Basalt's rows equal Paimon's, and its __paimon_bucket the bucket Paimon reads each from. */
  private void readsAsPaimon(String table) throws Exception {
    try (PaimonInterop reader = new PaimonInterop(warehouse)) {
      assertThat(rows("SELECT * FROM pw.%s", table)).isEqualTo(reader.rows("pw", table));
      assertThat(rows("SELECT *, __paimon_bucket FROM pw.%s", table))
          .isEqualTo(reader.rowsWithBucket("pw", table));
    }
  }

  @Test
  void deduplicateWithSequenceFieldDatePartitionsDeletesAndCompaction() throws Exception {
    create(
        "dedup",
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("dt", DataTypes.DATE().notNull())
            .column("v", DataTypes.STRING())
            .column("seq", DataTypes.BIGINT())
            .partitionKeys("dt")
            .primaryKey("id", "dt")
            .option("bucket", "2")
            .option("sequence.field", "seq"));
    int day = 19_000; // 2022-01-08
    write(
        "dedup",
        GenericRow.of(1, day, s("a"), 5L),
        GenericRow.of(2, day, s("b"), 1L),
        GenericRow.of(3, day + 1, s("c"), 1L),
        GenericRow.of(4, day + 1, s("d"), 1L));
    write(
        "dedup",
        GenericRow.of(1, day, s("older"), 4L),
        GenericRow.ofKind(RowKind.DELETE, 2, day, s("b"), 9L),
        GenericRow.of(3, day + 1, s("c2"), 2L));
    List<String> expected = List.of("1,19000,a,5", "3,19001,c2,2", "4,19001,d,1");
    assertThat(paimonRows("dedup")).isEqualTo(expected);
    List<String> basalt = List.of("1,2022-01-08,a,5", "3,2022-01-09,c2,2", "4,2022-01-09,d,1");
    assertThat(rows("SELECT * FROM pw.dedup")).isEqualTo(basalt);
    assertThat(rows("SELECT id FROM pw.dedup WHERE dt = DATE '2022-01-09'"))
        .containsExactly("3", "4");
    try (PaimonInterop interop = new PaimonInterop(warehouse)) {
      List<String> buckets = new java.util.ArrayList<>();
      for (String row : interop.rowsWithBucket("pw", "dedup")) {
        buckets.add(row.substring(0, row.indexOf(',')) + row.substring(row.lastIndexOf(',')));
      }
      assertThat(rows("SELECT id, __paimon_bucket FROM pw.dedup")).isEqualTo(buckets);
      interop.compact("pw", "dedup");
      assertThat(rows("SELECT * FROM pw.dedup")).isEqualTo(basalt);
      sql("CALL sys.compact(table => 'pw.dedup')");
      assertThat(interop.rows("pw", "dedup")).isEqualTo(expected);
    }
  }

  @Test
  void partialUpdateWithSequenceGroupsAndAnAggregator() throws Exception {
    create(
        "pu",
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("a", DataTypes.STRING())
            .column("ga", DataTypes.INT())
            .column("b", DataTypes.STRING())
            .column("c", DataTypes.BIGINT())
            .column("gb", DataTypes.INT())
            .primaryKey("id")
            .option("bucket", "1")
            .option("merge-engine", "partial-update")
            .option("fields.ga.sequence-group", "a")
            .option("fields.gb.sequence-group", "b,c")
            .option("fields.c.aggregate-function", "sum"));
    write(
        "pu",
        GenericRow.of(1, s("a1"), 1, null, null, null),
        GenericRow.of(2, s("x"), 1, s("y"), 1L, 1));
    write(
        "pu",
        GenericRow.of(1, null, null, s("b1"), 10L, 1),
        GenericRow.of(1, s("a0"), 0, s("b2"), 5L, 2));
    assertThat(paimonRows("pu")).containsExactly("1,a1,1,b2,15,2", "2,x,1,y,1,1");
    readsAsPaimon("pu");
  }

  @Test
  void aggregationFunctions() throws Exception {
    create(
        "agg",
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("s", DataTypes.BIGINT())
            .column("mx", DataTypes.INT())
            .column("mn", DataTypes.INT())
            .column("p", DataTypes.BIGINT())
            .column("la", DataTypes.STRING())
            .column("bo", DataTypes.BOOLEAN())
            .column("ba", DataTypes.BOOLEAN())
            .column("fv", DataTypes.STRING())
            .column("fnn", DataTypes.STRING())
            .column("lnn", DataTypes.STRING())
            .primaryKey("id")
            .option("bucket", "2")
            .option("merge-engine", "aggregation")
            .option("fields.s.aggregate-function", "sum")
            .option("fields.mx.aggregate-function", "max")
            .option("fields.mn.aggregate-function", "min")
            .option("fields.p.aggregate-function", "product")
            .option("fields.la.aggregate-function", "listagg")
            .option("fields.bo.aggregate-function", "bool_or")
            .option("fields.ba.aggregate-function", "bool_and")
            .option("fields.fv.aggregate-function", "first_value")
            .option("fields.fnn.aggregate-function", "first_non_null_value")
            .option("fields.lnn.aggregate-function", "last_non_null_value"));
    write(
        "agg",
        GenericRow.of(1, 1L, 1, 1, 2L, s("a"), false, true, null, null, s("x")),
        GenericRow.of(2, 5L, 5, 5, 5L, s("z"), true, true, s("f"), s("g"), s("h")));
    write("agg", GenericRow.of(1, 2L, 3, 0, 3L, s("b"), true, false, s("v2"), s("n2"), null));
    assertThat(paimonRows("agg"))
        .containsExactly("1,3,3,0,6,a,b,true,false,null,n2,x", "2,5,5,5,5,z,true,true,f,g,h");
    readsAsPaimon("agg");
  }

  @Test
  void deletionVectorTablesAlsoWriteOnly() throws Exception {
    create(
        "dv",
        idValue()
            .primaryKey("id")
            .option("bucket", "2")
            .option("deletion-vectors.enabled", "true"));
    write("dv", row(1, "a"), row(2, "b"), row(3, "c"));
    write("dv", row(2, "b2"), GenericRow.ofKind(RowKind.DELETE, 3, s("c")));
    assertThat(paimonRows("dv")).containsExactly("1,a", "2,b2");
    readsAsPaimon("dv");

    create(
        "dv_wo",
        idValue()
            .primaryKey("id")
            .option("bucket", "2")
            .option("deletion-vectors.enabled", "true")
            .option("write-only", "true"));
    write("dv_wo", row(1, "a"), row(2, "b"));
    // level-0 files are invisible to both until a compaction
    assertThat(paimonRows("dv_wo")).isEmpty();
    assertThat(rows("SELECT * FROM pw.dv_wo")).isEmpty();
    try (PaimonInterop interop = new PaimonInterop(warehouse)) {
      interop.compactUnpartitioned("pw", "dv_wo", 2);
    }
    assertThat(rows("SELECT * FROM pw.dv_wo")).containsExactly("1,a", "2,b");
    readsAsPaimon("dv_wo");
  }

  @Test
  void nestedTypesInAnAppendTable() throws Exception {
    create(
        "nested",
        Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column(
                "r",
                DataTypes.ROW(
                    DataTypes.FIELD(10, "x", DataTypes.INT()),
                    DataTypes.FIELD(11, "y", DataTypes.STRING())))
            .column("arr", DataTypes.ARRAY(DataTypes.INT()))
            .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
            .column("dec", DataTypes.DECIMAL(20, 4))
            .column("ts", DataTypes.TIMESTAMP(6)));
    write(
        "nested",
        GenericRow.of(
            1,
            GenericRow.of(7, s("y")),
            new GenericArray(new int[] {1, 2}),
            new GenericMap(Map.of(s("k"), 5)),
            Decimal.fromBigDecimal(new BigDecimal("12.3400"), 20, 4),
            Timestamp.fromMicros(T0 * 1000 + 456)),
        GenericRow.of(2, null, null, null, null, null));
    assertThat(
            rows(
                "SELECT id, r.x, r.y, arr[1], size(arr), m['k'], dec, CAST(ts AS STRING)"
                    + " FROM pw.nested"))
        .containsExactly(
            "1,7,y,2,2,5,12.3400,2024-10-09 00:00:00.123456",
            "2,null,null,null,null,null,null,null");
  }

  @Test
  void schemaEvolvedByPaimon() throws Exception {
    create("evolved", idValue().primaryKey("id").option("bucket", "1"));
    write("evolved", row(1, "a"), row(2, "b"));
    paimon.alterTable(
        Identifier.create("pw", "evolved"),
        List.of(
            SchemaChange.addColumn("n", DataTypes.BIGINT()), SchemaChange.renameColumn("v", "w")),
        false);
    write("evolved", GenericRow.of(2, s("b2"), 7L), GenericRow.of(3, s("c"), 8L));
    assertThat(paimonRows("evolved")).containsExactly("1,a,null", "2,b2,7", "3,c,8");
    readsAsPaimon("evolved");
    assertThat(rows("SELECT id FROM pw.evolved WHERE w = 'a'")).containsExactly("1");
  }

  /** rbm32 and rbm64 bitmaps merged by Basalt's read are the bytes Paimon's read returns. */
  @Test
  void roaringBitmapAggregation() throws Exception {
    create(
        "rbm",
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("b32", DataTypes.BYTES())
            .column("b64", DataTypes.BYTES())
            .primaryKey("id")
            .option("bucket", "1")
            .option("merge-engine", "aggregation")
            .option("fields.b32.aggregate-function", "rbm32")
            .option("fields.b64.aggregate-function", "rbm64"));
    write(
        "rbm",
        GenericRow.of(
            1,
            RoaringBitmap32.bitmapOf(1, 5).serialize(),
            RoaringBitmap64.bitmapOf(1L, 1L << 40).serialize()));
    write(
        "rbm",
        GenericRow.of(
            1, RoaringBitmap32.bitmapOf(7).serialize(), RoaringBitmap64.bitmapOf(3L).serialize()));
    Table table = paimon.getTable(Identifier.create("pw", "rbm"));
    ReadBuilder builder = table.newReadBuilder();
    List<byte[]> paimonBytes = new java.util.ArrayList<>();
    try (RecordReader<org.apache.paimon.data.InternalRow> reader =
        builder.newRead().createReader(builder.newScan().plan())) {
      reader.forEachRemaining(
          row -> {
            paimonBytes.add(row.getBinary(1));
            paimonBytes.add(row.getBinary(2));
          });
    }
    List<Object[]> basalt = sql("SELECT b32, b64 FROM pw.rbm");
    assertThat(basalt).hasSize(1);
    assertThat(paimonBytes).hasSize(2);
    assertThat((byte[]) basalt.get(0)[0]).isEqualTo(paimonBytes.get(0));
    assertThat((byte[]) basalt.get(0)[1]).isEqualTo(paimonBytes.get(1));
    RoaringBitmap32 merged = new RoaringBitmap32();
    merged.deserialize(java.nio.ByteBuffer.wrap((byte[]) basalt.get(0)[0]));
    assertThat(merged.getCardinality()).isEqualTo(3);
    assertThat(merged.contains(7)).isTrue();
    RoaringBitmap64 merged64 = new RoaringBitmap64();
    merged64.deserialize((byte[]) basalt.get(0)[1]);
    assertThat(merged64.serialize())
        .isEqualTo(RoaringBitmap64.bitmapOf(1L, 3L, 1L << 40).serialize());
  }
}

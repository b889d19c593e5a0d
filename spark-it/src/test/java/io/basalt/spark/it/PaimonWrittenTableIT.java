package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
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
  void dataFilesInAnotherFormatAreRefusedNamingTheOption() throws Exception {
    for (String format : new String[] {"avro", "orc"}) {
      String table = "format_" + format;
      create(table, idValue().option("file.format", format));
      write(table, row(1, "a"));
      assertThatThrownBy(() -> sql("SELECT * FROM pw.%s", table))
          .hasMessageContaining(
              "Table pw."
                  + table
                  + " has 'file.format' = '"
                  + format
                  + "'; Basalt reads and writes"
                  + " only Parquet data files ('file.format' = 'parquet')");
    }
  }

  @Test
  void parquetManifestsAreRefusedNamingTheOption() throws Exception {
    create("manifest_parquet", idValue().option("manifest.format", "parquet"));
    write("manifest_parquet", row(1, "a"));
    assertThatThrownBy(() -> sql("SELECT * FROM pw.manifest_parquet"))
        .hasMessageContaining(
            "Table pw.manifest_parquet has 'manifest.format' = 'parquet'; Basalt reads and writes"
                + " only Avro manifests ('manifest.format' = 'avro')");
  }
}

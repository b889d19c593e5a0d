package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables written with Basalt SQL read by Apache Paimon 1.3.1's own {@code ReadBuilder} with the
 * same rows; then Paimon's writer adds to them and Basalt reads both systems' rows.
 */
class BasaltWrittenTableIT extends SparkTestBase {
  private static final long T0_MICROS = 1_728_432_000_123_456L; // 2024-10-09 00:00:00.123456 UTC

  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS bw");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  private void sameInBoth(String table, String... expected) throws Exception {
    assertThat(rows("SELECT * FROM bw.%s", table)).as("Basalt").containsExactly(expected);
    assertThat(paimon.rows("bw", table)).as("Paimon").containsExactly(expected);
  }

  /** Basalt's __paimon_bucket of every row equals the bucket Paimon reads it from. */
  private void sameBuckets(String table) throws Exception {
    assertThat(paimon.rowsWithBucket("bw", table))
        .isEqualTo(rows("SELECT *, __paimon_bucket FROM bw.%s", table));
  }

  private static BinaryString s(String value) {
    return BinaryString.fromString(value);
  }

  @Test
  void firstRowTableReadsTheSameInPaimon() throws Exception {
    // Paimon 1.3 refuses first-row with deletion vectors ("does not need deletion vectors"), which
    // Basalt allows: an allowed difference listed in docs/format.md
    String[] variants = {"first", "first_compacting"};
    String[] extra = {"", ", 'num-sorted-run.compaction-trigger' = '2'"};
    for (int i = 0; i < variants.length; i++) {
      String t = variants[i];
      sql(
          "CREATE TABLE bw.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
              + " 'bucket' = '2', 'merge-engine' = 'first-row'%s)",
          t, extra[i]);
      sql("INSERT INTO bw.%s VALUES (1, 'a1'), (2, 'b1')", t);
      sql("INSERT INTO bw.%s VALUES (1, 'a2'), (3, 'c1')", t);
      sameInBoth(t, "1,a1", "2,b1", "3,c1");
      sql("CALL sys.compact(table => 'bw.%s')", t);
      sameInBoth(t, "1,a1", "2,b1", "3,c1");
      paimon.write("bw", t, GenericRow.of(3, s("c2")), GenericRow.of(4, s("d1")));
      sameInBoth(t, "1,a1", "2,b1", "3,c1", "4,d1");
      sameBuckets(t);
    }
  }

  @Test
  void deduplicateWithRowLevelChangesCompactionAndEvolution() throws Exception {
    sql(
        "CREATE TABLE bw.dedup (id INT, v STRING, dt STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
    sql("INSERT INTO bw.dedup VALUES (1, 'a', 'd1'), (2, 'b', 'd1'), (3, 'c', 'd2')");
    sql("UPDATE bw.dedup SET v = 'b2' WHERE id = 2");
    sql("DELETE FROM bw.dedup WHERE id = 3");
    sql(
        "MERGE INTO bw.dedup t USING (SELECT 4 AS id, 'd' AS v, 'd2' AS dt UNION ALL"
            + " SELECT 1, 'a2', 'd1') s ON t.id = s.id AND t.dt = s.dt"
            + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
    sameInBoth("dedup", "1,a2,d1", "2,b2,d1", "4,d,d2");
    sql("CALL sys.compact(table => 'bw.dedup')");
    sql("ALTER TABLE bw.dedup ADD COLUMN n BIGINT");
    sql("INSERT INTO bw.dedup VALUES (5, 'e', 'd1', 7)");
    sameInBoth("dedup", "1,a2,d1,null", "2,b2,d1,null", "4,d,d2,null", "5,e,d1,7");
    paimon.write(
        "bw",
        "dedup",
        GenericRow.of(6, s("f"), s("d2"), 8L),
        GenericRow.ofKind(RowKind.DELETE, 1, s("a2"), s("d1"), null),
        GenericRow.of(2, s("b3"), s("d1"), 9L));
    sameInBoth("dedup", "2,b3,d1,9", "4,d,d2,null", "5,e,d1,7", "6,f,d2,8");
    sameBuckets("dedup");
    sql("CALL sys.compact(table => 'bw.dedup')");
    sameInBoth("dedup", "2,b3,d1,9", "4,d,d2,null", "5,e,d1,7", "6,f,d2,8");
  }

  @Test
  void deletionVectorTable() throws Exception {
    sql(
        "CREATE TABLE bw.dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO bw.dv VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO bw.dv VALUES (2, 'b2')");
    sql("DELETE FROM bw.dv WHERE id = 3");
    sameInBoth("dv", "1,a", "2,b2");
    paimon.write("bw", "dv", GenericRow.of(1, s("a3")), GenericRow.of(4, s("d")));
    sameInBoth("dv", "1,a3", "2,b2", "4,d");
    sameBuckets("dv");
  }

  @Test
  void partialUpdateWithSequenceGroupsAndAggregation() throws Exception {
    sql(
        "CREATE TABLE bw.pu (id INT, a STRING, ga INT, b STRING, gb INT) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'merge-engine' = 'partial-update',"
            + " 'fields.ga.sequence-group' = 'a', 'fields.gb.sequence-group' = 'b')");
    sql("INSERT INTO bw.pu VALUES (1, 'a1', 1, CAST(NULL AS STRING), CAST(NULL AS INT))");
    sql("INSERT INTO bw.pu VALUES (1, CAST(NULL AS STRING), CAST(NULL AS INT), 'b1', 1)");
    sql("INSERT INTO bw.pu VALUES (1, 'a0', 0, 'b2', 2)");
    sameInBoth("pu", "1,a1,1,b2,2");
    paimon.write("bw", "pu", GenericRow.of(1, s("a3"), 3, null, null));
    sameInBoth("pu", "1,a3,3,b2,2");

    sql(
        "CREATE TABLE bw.agg (id INT, total BIGINT, mx INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'aggregation',"
            + " 'fields.total.aggregate-function' = 'sum', 'fields.mx.aggregate-function' = 'max')");
    sql("INSERT INTO bw.agg VALUES (1, 10, 3), (2, 1, 1)");
    sql("INSERT INTO bw.agg VALUES (1, 5, 2)");
    sameInBoth("agg", "1,15,3", "2,1,1");
    paimon.write("bw", "agg", GenericRow.of(1, 100L, 7));
    sameInBoth("agg", "1,115,7", "2,1,1");
    sql("CALL sys.compact(table => 'bw.agg')");
    sameInBoth("agg", "1,115,7", "2,1,1");
  }

  @Test
  void appendTable() throws Exception {
    sql("CREATE TABLE bw.app (id INT, price DECIMAL(10, 2), name STRING)");
    sql("INSERT INTO bw.app VALUES (1, 1.50, 'x'), (2, NULL, 'y')");
    sameInBoth("app", "1,1.50,x", "2,null,y");
    paimon.write("bw", "app", GenericRow.of(3, Decimal.fromUnscaledLong(250, 10, 2), s("z")));
    sameInBoth("app", "1,1.50,x", "2,null,y", "3,2.50,z");
  }

  /**
   * A TIMESTAMP(3) bucket key written by Basalt: stored as Paimon's millis, cut to the precision,
   * and bucketed as Paimon buckets it, so Paimon's own writes of the same keys replace the rows.
   */
  @Test
  void timestamp3ColumnsAreWrittenAsPaimonWritesThem() throws Exception {
    paimon
        .catalog()
        .createTable(
            Identifier.create("bw", "ts3"),
            Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("ts", DataTypes.TIMESTAMP(3).notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id", "ts")
                .option("bucket", "4")
                .option("bucket-key", "ts")
                .build(),
            false);
    sql(
        "INSERT INTO bw.ts3 VALUES (1, TIMESTAMP_NTZ '2024-10-09 00:00:00.123456', 'a'),"
            + " (2, TIMESTAMP_NTZ '1969-12-31 23:59:59.999999', 'b')");
    // several tasks write: each bucket's rows must still reach one task
    sql(
        "INSERT INTO bw.ts3 SELECT CAST(id + 10 AS INT),"
            + " CAST(timestamp_micros(%d + id * 1111) AS TIMESTAMP_NTZ), 'r'"
            + " FROM range(40) DISTRIBUTE BY id",
        T0_MICROS);
    assertThat(paimon.rows("bw", "ts3"))
        .contains("1,2024-10-09T00:00:00.123,a", "2,1969-12-31T23:59:59.999,b")
        .hasSize(42);
    assertThat(rows("SELECT * FROM bw.ts3")).isEqualTo(paimon.rows("bw", "ts3"));
    // statistics hold the stored (cut) values, so equality on them finds the rows
    assertThat(rows("SELECT id FROM bw.ts3 WHERE ts = TIMESTAMP_NTZ '2024-10-09 00:00:00.123'"))
        .containsExactly("1", "10");
    assertThat(rows("SELECT id FROM bw.ts3 WHERE ts < TIMESTAMP_NTZ '1970-01-01 00:00:00'"))
        .containsExactly("2");
    sameBuckets("ts3");
    List<GenericRow> updates = new ArrayList<>();
    updates.add(GenericRow.of(1, Timestamp.fromEpochMillis(T0_MICROS / 1000), s("p")));
    for (int id = 0; id < 40; id++) {
      long millis = Math.floorDiv(T0_MICROS + id * 1111L, 1000L);
      updates.add(GenericRow.of(id + 10, Timestamp.fromEpochMillis(millis), s("p")));
    }
    paimon.write("bw", "ts3", updates.toArray(new GenericRow[0]));
    assertThat(rows("SELECT v, count(*) FROM bw.ts3 GROUP BY v")).containsExactly("b,1", "p,41");
    assertThat(paimon.rows("bw", "ts3")).isEqualTo(rows("SELECT * FROM bw.ts3"));
    // Spark's bucket transform hashes microseconds, so a grouped scan must not report it here
    String plan =
        spark
            .read()
            .option("scan.preserve-data-grouping", "true")
            .table("bw.ts3")
            .queryExecution()
            .explainString(org.apache.spark.sql.execution.ExplainMode.fromString("formatted"));
    assertThat(plan).contains("grouping=off: bucket key ts is a timestamp of precision 3");
  }

  /** Tags and rollback made by one system are read by the other; Basalt expiration keeps tags. */
  @Test
  void tagsRollbackAndExpirationAcrossSystems() throws Exception {
    sql(
        "CREATE TABLE bw.hist (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')");
    sql("INSERT INTO bw.hist VALUES (1, 'a')");
    sql("CALL sys.create_tag(table => 'bw.hist', tag => 'basalt1', snapshot => 1)");
    paimon.write("bw", "hist", GenericRow.of(2, s("b")));
    paimon.table("bw", "hist").createTag("paimon2", 2);
    sql("INSERT INTO bw.hist VALUES (3, 'c')");
    assertThat(paimon.rows(paimon.table("bw", "hist").copy(Map.of("scan.tag-name", "basalt1"))))
        .containsExactly("1,a");
    assertThat(rows("SELECT * FROM bw.hist VERSION AS OF 'paimon2'")).containsExactly("1,a", "2,b");
    sameInBoth("hist", "1,a", "2,b", "3,c");

    paimon.table("bw", "hist").rollbackTo("paimon2");
    sameInBoth("hist", "1,a", "2,b");
    sql("INSERT INTO bw.hist VALUES (4, 'd')");
    sql("CALL sys.rollback(table => 'bw.hist', tag => 'basalt1')");
    sameInBoth("hist", "1,a");
    paimon.write("bw", "hist", GenericRow.of(5, s("e")));
    sql("INSERT INTO bw.hist VALUES (6, 'f')");
    sql("CALL sys.expire_snapshots(table => 'bw.hist', retain_max => 1)");
    sameInBoth("hist", "1,a", "5,e", "6,f");
    assertThat(paimon.rows(paimon.table("bw", "hist").copy(Map.of("scan.tag-name", "basalt1"))))
        .containsExactly("1,a");
  }

  @Test
  void datePartitionsAndARenamedColumn() throws Exception {
    sql(
        "CREATE TABLE bw.dated (id INT, dt DATE, v STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
    sql("INSERT INTO bw.dated VALUES (1, DATE '2022-01-08', 'a'), (2, DATE '2022-01-09', 'b')");
    sql("ALTER TABLE bw.dated RENAME COLUMN v TO w");
    sql("INSERT INTO bw.dated VALUES (2, DATE '2022-01-09', 'b2')");
    // Paimon's DATE is days since the epoch
    assertThat(paimon.rows("bw", "dated")).containsExactly("1,19000,a", "2,19001,b2");
    assertThat(paimon.table("bw", "dated").rowType().getFieldNames())
        .containsExactly("id", "dt", "w");
    assertThat(rows("SELECT id, datediff(dt, DATE '1970-01-01'), w FROM bw.dated"))
        .isEqualTo(paimon.rows("bw", "dated"));
    List<String> buckets = new ArrayList<>();
    for (String row : paimon.rowsWithBucket("bw", "dated")) {
      buckets.add(row.substring(0, row.indexOf(',')) + row.substring(row.lastIndexOf(',')));
    }
    assertThat(rows("SELECT id, __paimon_bucket FROM bw.dated")).isEqualTo(buckets);
  }
}

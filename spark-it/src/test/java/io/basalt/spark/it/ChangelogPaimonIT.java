package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apache Paimon 1.3.1 reads the input and lookup changelogs Basalt writes (and the data of lookup
 * tables, whose levels above 0 hold whole merged rows), and Basalt's expiration keeps the snapshots
 * a Paimon streaming consumer still has to read.
 */
class ChangelogPaimonIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS cp");
  }

  /** The rows Paimon's changelog read of {@code range} returns, as {@code kind,id,v}, sorted. */
  private static List<String> paimonChangelog(Table table, String range) throws Exception {
    Table reading =
        table.copy(
            Map.of("incremental-between", range, "incremental-between-scan-mode", "changelog"));
    ReadBuilder builder = reading.newReadBuilder();
    List<String> result = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(
            row ->
                result.add(
                    row.getRowKind().shortString() + "," + row.getInt(0) + "," + row.getString(1)));
      }
    }
    result.sort(null);
    return result;
  }

  @Test
  void paimonReadsTheChangelogBasaltWrites() throws Exception {
    sql(
        "CREATE TABLE cp.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'changelog-producer' = 'input')");
    sql("INSERT INTO cp.t VALUES (1, 'a'), (2, 'b')");
    sql("UPDATE cp.t SET v = 'a2' WHERE id = 1");
    sql("DELETE FROM cp.t WHERE id = 2");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      Table table = paimon.table("cp", "t");
      assertThat(paimonChangelog(table, "0,3"))
          .containsExactly("+I,1,a", "+I,2,b", "+U,1,a2", "-D,2,b", "-U,1,a");
      assertThat(paimonChangelog(table, "1,2")).containsExactly("+U,1,a2", "-U,1,a");
    }
  }

  @Test
  void expirationKeepsWhatAPaimonConsumerStillReads() throws Exception {
    sql(
        "CREATE TABLE cp.consumed (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'changelog-producer' = 'input')");
    for (String v : List.of("a", "b", "c", "d")) {
      sql("INSERT INTO cp.consumed VALUES (1, '%s')", v);
    }
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      FileStoreTable table = (FileStoreTable) paimon.table("cp", "consumed");
      new ConsumerManager(table.fileIO(), table.location()).resetConsumer("job", new Consumer(3));
      sql("CALL sys.expire_snapshots(table => 'cp.consumed', retain_max => 1)");
      assertThat(rows("SELECT snapshot_id FROM cp.`consumed$snapshots`")).containsExactly("3", "4");
      // the consumer's next read still finds its changelog, in Paimon and in Basalt
      assertThat(paimonChangelog(paimon.table("cp", "consumed"), "2,4"))
          .containsExactly("+I,1,c", "+I,1,d");
      spark.conf().set("spark.paimon.incremental-between", "2,4");
      try {
        assertThat(rows("SELECT * FROM cp.`consumed$audit_log`"))
            .containsExactly("+I,1,c", "+I,1,d");
      } finally {
        spark.conf().unset("spark.paimon.incremental-between");
      }
    }
  }

  /** Paimon's batch read of {@code table}, each row as its string columns joined, sorted. */
  private static List<String> paimonRows(Table table, int columns) throws Exception {
    ReadBuilder builder = table.newReadBuilder();
    List<String> result = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(
            row -> {
              StringBuilder text = new StringBuilder().append(row.getInt(0));
              for (int i = 1; i < columns; i++) {
                text.append(',').append(row.isNullAt(i) ? "null" : row.getString(i).toString());
              }
              result.add(text.toString());
            });
      }
    }
    result.sort(null);
    return result;
  }

  @Test
  void paimonReadsTheLookupChangelogBasaltWrites() throws Exception {
    sql(
        "CREATE TABLE cp.lk (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'changelog-producer' = 'lookup')");
    sql("INSERT INTO cp.lk VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO cp.lk VALUES (1, 'a2'), (3, 'c')");
    sql("DELETE FROM cp.lk WHERE id = 2");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      Table table = paimon.table("cp", "lk");
      assertThat(paimonChangelog(table, "0,6"))
          .containsExactly("+I,1,a", "+I,2,b", "+I,3,c", "+U,1,a2", "-D,2,b", "-U,1,a");
      // the changelog of a write is in the COMPACT snapshot after its APPEND
      assertThat(paimonChangelog(table, "2,4")).containsExactly("+I,3,c", "+U,1,a2", "-U,1,a");
      assertThat(paimonRows(table, 2)).containsExactly("1,a2", "3,c");
    }
  }

  /**
   * Without deletion vectors, older versions stay in lower levels: Paimon reads a lookup table by
   * the newest version above level 0 alone, which Basalt writes as the whole merged row.
   */
  @Test
  void paimonReadsAPartialUpdateLookupTableWithoutDeletionVectors() throws Exception {
    sql(
        "CREATE TABLE cp.lkp (id INT, a STRING, b STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'merge-engine' = 'partial-update', 'changelog-producer' ="
            + " 'lookup')");
    sql("INSERT INTO cp.lkp VALUES (1, 'a', NULL), (2, 'p', 'q')");
    sql("INSERT INTO cp.lkp VALUES (1, NULL, 'x')");
    sql("INSERT INTO cp.lkp VALUES (1, 'a2', NULL)");
    assertThat(rows("SELECT * FROM cp.lkp")).containsExactly("1,a2,x", "2,p,q");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      assertThat(paimonRows(paimon.table("cp", "lkp"), 3)).containsExactly("1,a2,x", "2,p,q");
    }
  }
}

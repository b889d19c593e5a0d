package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark's partition commands on Basalt tables, as Paimon's connector answers them: SHOW PARTITIONS
 * (with a partial spec), ALTER TABLE ... ADD / DROP PARTITION, TRUNCATE TABLE ... PARTITION, BINARY
 * partition columns, and the errors of bad specs.
 */
class PartitionManagementIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS pm");
  }

  private void createHourly(String name, String properties) {
    sql(
        "CREATE TABLE pm.%s (a STRING, c BIGINT, dt BIGINT, hh STRING) PARTITIONED BY (dt, hh)"
            + " TBLPROPERTIES (%s)",
        name, properties);
    sql(
        "INSERT INTO pm.%s VALUES ('a', 1, 20230816, '1132'), ('a', 1, 20230816, '1133'),"
            + " ('a', 1, 20230816, '1134'), ('a', 2, 20230817, '1132'), ('a', 2, 20230817, '1133')",
        name);
  }

  private long overwrites(String table) {
    return (long)
        sql("SELECT count(*) FROM pm.`%s$snapshots` WHERE commit_kind = 'OVERWRITE'", table)
            .get(0)[0];
  }

  private long snapshots(String table) {
    return (long) sql("SELECT count(*) FROM pm.`%s$snapshots`", table).get(0)[0];
  }

  @Test
  void showsPartitionsWithFullAndPartialSpecs() {
    createHourly("show_pk", "'primary-key' = 'a,dt,hh', 'bucket' = '1'");
    assertThat(rows("SHOW PARTITIONS pm.show_pk"))
        .containsExactly(
            "dt=20230816/hh=1132",
            "dt=20230816/hh=1133",
            "dt=20230816/hh=1134",
            "dt=20230817/hh=1132",
            "dt=20230817/hh=1133");
    assertThat(rows("SHOW PARTITIONS pm.show_pk PARTITION (dt = 20230817, hh = '1132')"))
        .containsExactly("dt=20230817/hh=1132");
    assertThat(rows("SHOW PARTITIONS pm.show_pk PARTITION (hh = '1132')"))
        .containsExactly("dt=20230816/hh=1132", "dt=20230817/hh=1132");
    assertThat(rows("SHOW PARTITIONS pm.show_pk PARTITION (dt = 20230817)"))
        .containsExactly("dt=20230817/hh=1132", "dt=20230817/hh=1133");
    assertThat(rows("SHOW PARTITIONS pm.show_pk PARTITION (hh = '1135')")).isEmpty();
  }

  @Test
  void dropsSeveralPartitionsInOneOverwriteCommit() {
    createHourly("drop_append", "'bucket' = '-1'");
    long before = snapshots("drop_append");
    sql(
        "ALTER TABLE pm.drop_append DROP PARTITION (dt = 20230816, hh = '1134'),"
            + " PARTITION (dt = 20230817, hh = '1133')");
    assertThat(snapshots("drop_append")).isEqualTo(before + 1);
    assertThat(overwrites("drop_append")).isEqualTo(1);
    assertThat(rows("SELECT dt, hh FROM pm.drop_append"))
        .containsExactly("20230816,1132", "20230816,1133", "20230817,1132");
    assertThat(rows("SHOW PARTITIONS pm.drop_append PARTITION (dt = 20230817)"))
        .containsExactly("dt=20230817/hh=1132");
    // the dropped rows stay readable in the snapshot before the drop
    assertThat(rows("SELECT count(*) FROM pm.drop_append VERSION AS OF %d", before))
        .containsExactly("5");

    // one missing partition fails the whole statement, naming it; IF EXISTS skips it
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE pm.drop_append DROP PARTITION (dt = 20230816, hh = '1132'),"
                        + " PARTITION (dt = 99999999, hh = '00')"))
        .hasMessageContaining("PARTITIONS_NOT_FOUND")
        .hasMessageContaining("`dt` = 99999999")
        .hasMessageContaining("drop_append");
    assertThat(rows("SELECT count(*) FROM pm.drop_append")).containsExactly("3");
    sql(
        "ALTER TABLE pm.drop_append DROP IF EXISTS PARTITION (dt = 20230816, hh = '1132'),"
            + " PARTITION (dt = 99999999, hh = '00')");
    assertThat(rows("SHOW PARTITIONS pm.drop_append"))
        .containsExactly("dt=20230816/hh=1133", "dt=20230817/hh=1132");
    assertThat(overwrites("drop_append")).isEqualTo(2);
  }

  @Test
  void dropOnPrimaryKeyTableAndNullPartition() {
    sql("CREATE TABLE pm.drop_null (id INT, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO pm.drop_null VALUES (1, '20240601'), (2, NULL)");
    assertThat(rows("SHOW PARTITIONS pm.drop_null")).containsExactly("dt=20240601", "dt=null");
    sql("ALTER TABLE pm.drop_null DROP PARTITION (dt = NULL)");
    assertThat(rows("SELECT * FROM pm.drop_null")).containsExactly("1,20240601");

    sql(
        "CREATE TABLE pm.drop_pk (id INT, v STRING, dt STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2')");
    sql("INSERT INTO pm.drop_pk VALUES (1, 'x', '20240601'), (3, 'z', '20240602')");
    sql("ALTER TABLE pm.drop_pk DROP PARTITION (dt = '20240601')");
    assertThat(rows("SELECT * FROM pm.drop_pk")).containsExactly("3,z,20240602");
    // the key still works after the drop: a new row in a dropped partition is just inserted
    sql("INSERT INTO pm.drop_pk VALUES (1, 'again', '20240601')");
    assertThat(rows("SELECT * FROM pm.drop_pk"))
        .containsExactly("1,again,20240601", "3,z,20240602");
  }

  @Test
  void partialDropSpecFailsNamingTheColumns() {
    createHourly("drop_partial", "'bucket' = '-1'");
    assertThatThrownBy(() -> sql("ALTER TABLE pm.drop_partial DROP PARTITION (dt = 20230816)"))
        .hasMessageContaining(
            "The spec (dt) must match the partition spec (dt, hh) defined in table"
                + " '`paimon`.`pm`.`drop_partial`'");
    assertThat(rows("SELECT count(*) FROM pm.drop_partial")).containsExactly("5");
    // what the message suggests drops whole partitions without reading them
    sql("DELETE FROM pm.drop_partial WHERE dt = 20230816");
    assertThat(rows("SHOW PARTITIONS pm.drop_partial"))
        .containsExactly("dt=20230817/hh=1132", "dt=20230817/hh=1133");
  }

  @Test
  void unknownPartitionColumnOrValueFailsNamingIt() {
    createHourly("bad_spec", "'bucket' = '-1'");
    assertThatThrownBy(
            () -> sql("ALTER TABLE pm.bad_spec DROP PARTITION (dt = 20230816, nope = '1132')"))
        .hasMessageContaining("nope")
        .hasMessageContaining("bad_spec");
    assertThatThrownBy(() -> sql("SHOW PARTITIONS pm.bad_spec PARTITION (nope = '1')"))
        .hasMessageContaining("nope")
        .hasMessageContaining("bad_spec");
    assertThatThrownBy(
            () -> sql("ALTER TABLE pm.bad_spec DROP PARTITION (dt = 'monday', hh = '1132')"))
        .hasMessageContaining("monday");
    sql("CREATE TABLE pm.unpartitioned (id INT)");
    assertThatThrownBy(() -> sql("SHOW PARTITIONS pm.unpartitioned"))
        .hasMessageContaining("unpartitioned");
  }

  @Test
  void addPartitionChecksTheSpecAndRecordsNothing() {
    createHourly("add", "'bucket' = '-1'");
    long before = snapshots("add");
    sql("ALTER TABLE pm.add ADD PARTITION (dt = 20240101, hh = '00')");
    sql("ALTER TABLE pm.add ADD IF NOT EXISTS PARTITION (dt = 20230816, hh = '1132')");
    // as with Paimon over a file system: the partition appears when rows are written to it
    assertThat(snapshots("add")).isEqualTo(before);
    assertThat(rows("SHOW PARTITIONS pm.add PARTITION (dt = 20240101)")).isEmpty();
    assertThatThrownBy(() -> sql("ALTER TABLE pm.add ADD PARTITION (dt = 20230816, hh = '1132')"))
        .hasMessageContaining("PARTITIONS_ALREADY_EXIST")
        .hasMessageContaining("`dt` = 20230816");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE pm.add ADD PARTITION (dt = 20240102, hh = '00') LOCATION"
                        + " '/tmp/elsewhere'"))
        .hasMessageContaining(
            "Table pm.add: ADD PARTITION ... LOCATION '/tmp/elsewhere' is not supported; a"
                + " partition's files always live under the table's directory. Remove the"
                + " LOCATION clause.");
  }

  @Test
  void truncatesFullAndPartialPartitions() {
    createHourly("trunc", "'primary-key' = 'a,dt,hh', 'bucket' = '1'");
    sql("TRUNCATE TABLE pm.trunc PARTITION (dt = 20230816, hh = '1132')");
    assertThat(rows("SELECT count(*) FROM pm.trunc")).containsExactly("4");
    sql("TRUNCATE TABLE pm.trunc PARTITION (dt = 20230817)");
    assertThat(rows("SELECT dt, hh FROM pm.trunc"))
        .containsExactly("20230816,1133", "20230816,1134");
    assertThat(overwrites("trunc")).isEqualTo(2);
  }

  @Test
  void binaryPartitionColumns() throws Exception {
    sql("CREATE TABLE pm.bin (id BIGINT, c1 STRING, day BINARY) PARTITIONED BY (day)");
    sql(
        "INSERT INTO pm.bin VALUES (1, 'a', CAST('2021' AS BINARY)), (2, 'b', CAST('a/b' AS"
            + " BINARY)), (3, 'c', NULL)");
    // the directory is the bytes as UTF-8 text, escaped (Paimon's non-legacy partition name)
    assertThat(dirsUnder(tablePath("pm", "bin"), "day="))
        .containsExactly("day=2021", "day=__DEFAULT_PARTITION__", "day=a%2Fb");
    assertThat(rows("SELECT id, CAST(day AS STRING) FROM pm.bin"))
        .containsExactly("1,2021", "2,a/b", "3,null");
    assertThat(rows("SELECT id FROM pm.bin WHERE day = CAST('2021' AS BINARY)"))
        .containsExactly("1");
    assertThat(rows("SHOW PARTITIONS pm.bin")).containsExactly("day=2021", "day=a%2Fb", "day=null");
    sql("ALTER TABLE pm.bin DROP PARTITION (day = 'a/b')");
    assertThat(rows("SELECT id FROM pm.bin")).containsExactly("1", "3");
    assertThat(rows("SELECT partition FROM pm.`bin$partitions`"))
        .containsExactly("day=2021", "day=__DEFAULT_PARTITION__");
    assertThat(Files.isDirectory(tablePath("pm", "bin").resolve("day=2021"))).isTrue();
  }

  @Test
  void binaryPartitionsReadTheSameInPaimon() throws Exception {
    // Paimon names BINARY partitions by their text only without its legacy naming
    sql(
        "CREATE TABLE pm.bin_interop (id INT, day BINARY) PARTITIONED BY (day) TBLPROPERTIES"
            + " ('partition.legacy-name' = 'false')");
    sql(
        "INSERT INTO pm.bin_interop VALUES (1, CAST('2021' AS BINARY)), (2, CAST('x y' AS BINARY))");
    try (PaimonInterop paimon = new PaimonInterop(warehouse)) {
      assertThat(paimonRows(paimon.table("pm", "bin_interop"))).containsExactly("1,2021", "2,x y");
      paimon.write("pm", "bin_interop", GenericRow.of(3, "2021".getBytes(StandardCharsets.UTF_8)));
      paimon.write("pm", "bin_interop", GenericRow.of(4, "new".getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(dirsUnder(tablePath("pm", "bin_interop"), "day="))
        .containsExactly("day=2021", "day=new", "day=x y");
    assertThat(rows("SELECT id, CAST(day AS STRING) FROM pm.bin_interop"))
        .containsExactly("1,2021", "2,x y", "3,2021", "4,new");
    assertThat(rows("SHOW PARTITIONS pm.bin_interop"))
        .containsExactly("day=2021", "day=new", "day=x y");
  }

  /** Paimon's own read of {@code table}'s (INT, BINARY) rows, the bytes shown as UTF-8 text. */
  private static List<String> paimonRows(Table table) throws Exception {
    ReadBuilder builder = table.newReadBuilder();
    List<String> rows = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(
            row ->
                rows.add(
                    row.getInt(0) + "," + new String(row.getBinary(1), StandardCharsets.UTF_8)));
      }
    }
    rows.sort(null);
    return rows;
  }
}

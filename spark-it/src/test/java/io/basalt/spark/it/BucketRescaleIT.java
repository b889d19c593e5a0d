package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After {@code ALTER TABLE ... SET TBLPROPERTIES ('bucket' = ...)}, a plain write into a partition
 * that still holds the old bucket count is refused before it commits anything (as Paimon 1.3 does):
 * Spark would cluster its rows by the new count while the partition's files use the old one. INSERT
 * OVERWRITE rescales the partition; new partitions take the new count.
 */
class BucketRescaleIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS db");
  }

  @AfterEach
  void dropTables() {
    spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
    sql("DROP TABLE IF EXISTS db.t");
  }

  private void createPartitionedTable() {
    sql(
        "CREATE TABLE db.t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'old', 'a' FROM range(0, 20)");
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')");
  }

  private FileStoreTable table() {
    return FileStoreTable.load(FileIO.local(), new Path(tablePath("db", "t").toUri()), "db.t");
  }

  /** The bucket count of each partition's files in the latest snapshot, by partition value. */
  private Map<String, TreeSet<Integer>> bucketCounts() {
    Map<String, TreeSet<Integer>> counts = new TreeMap<>();
    FileStoreTable table = table();
    for (DataSplit split : table.newScan().plan().splits()) {
      String partition =
          split.partition().equals(io.basalt.data.BinaryRow.EMPTY)
              ? ""
              : new io.basalt.data.BinaryRowCodec(table.partitionType())
                  .toRow(split.partition())
                  .getUTF8String(0)
                  .toString();
      counts.computeIfAbsent(partition, p -> new TreeSet<>()).add(split.totalBuckets());
    }
    return counts;
  }

  private List<String> snapshots() {
    return fileNames(tablePath("db", "t").resolve("snapshot"), "snapshot-");
  }

  private void assertRefused(Runnable write, String target) {
    List<String> snapshots = snapshots();
    List<String> files = dataFiles(tablePath("db", "t"));
    List<String> rows = rows("SELECT * FROM db.t");

    assertThatThrownBy(write::run)
        .hasMessageContaining(
            "Try to write " + target + " with a new bucket num 4, but the previous bucket num is 2")
        .hasMessageContaining("INSERT OVERWRITE");

    assertThat(snapshots()).isEqualTo(snapshots);
    assertThat(dataFiles(tablePath("db", "t"))).isEqualTo(files);
    assertThat(rows("SELECT * FROM db.t")).isEqualTo(rows);
  }

  @Test
  void plainWritesIntoAPartitionWithTheOldCountAreRefused() {
    createPartitionedTable();

    assertRefused(
        () -> sql("INSERT INTO db.t VALUES (100, 'new', 'a')"), "partition {dt=a} of table db.t");
    // a write touching an old and a new partition commits neither
    assertRefused(
        () -> sql("INSERT INTO db.t VALUES (101, 'new', 'b'), (102, 'new', 'a')"),
        "partition {dt=a} of table db.t");
    StructType schema =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("v", DataTypes.StringType)
            .add("dt", DataTypes.StringType);
    List<Row> rows = List.of(RowFactory.create(103, "new", "a"));
    assertRefused(
        () -> {
          try {
            spark.createDataFrame(rows, schema).writeTo("db.t").append();
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        },
        "partition {dt=a} of table db.t");
    assertRefused(
        () -> sql("UPDATE db.t SET v = 'new' WHERE id = 1"), "partition {dt=a} of table db.t");
    assertRefused(() -> sql("DELETE FROM db.t WHERE id = 2"), "partition {dt=a} of table db.t");
    assertRefused(
        () ->
            sql(
                "MERGE INTO db.t AS t USING (SELECT 3 AS id, 'a' AS dt) AS s"
                    + " ON t.id = s.id AND t.dt = s.dt WHEN MATCHED THEN UPDATE SET v = 'new'"),
        "partition {dt=a} of table db.t");
    assertThat(bucketCounts()).isEqualTo(Map.of("a", new TreeSet<>(List.of(2))));
  }

  @Test
  void copyOnWriteChangesOfAnAppendTableAreRefused() {
    sql(
        "CREATE TABLE db.t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('bucket' = '2', 'bucket-key' = 'id')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'old', 'a' FROM range(0, 20)");
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')");

    assertRefused(() -> sql("DELETE FROM db.t WHERE id = 2"), "partition {dt=a} of table db.t");
    assertRefused(
        () -> sql("UPDATE db.t SET v = 'new' WHERE id = 3"), "partition {dt=a} of table db.t");

    sql("INSERT OVERWRITE db.t PARTITION (dt = 'a') SELECT id, v FROM db.t WHERE dt = 'a'");
    sql("DELETE FROM db.t WHERE id = 2");
    assertThat(bucketCounts()).isEqualTo(Map.of("a", new TreeSet<>(List.of(4))));
    assertThat(rows("SELECT count(*) FROM db.t")).containsExactly("19");
  }

  @Test
  void newPartitionsTakeTheNewCount() {
    createPartitionedTable();

    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'new', 'b' FROM range(0, 20)");

    assertThat(bucketCounts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(2)), "b", new TreeSet<>(List.of(4))));
    assertThat(rows("SELECT count(*), count(DISTINCT id) FROM db.t WHERE dt = 'b'"))
        .containsExactly("20,20");
    assertThat(rows("SELECT count(*) FROM db.t WHERE dt = 'a' AND v = 'old'"))
        .containsExactly("20");
  }

  @Test
  void staticOverwriteRescalesThePartitionThenInsertsWork() {
    createPartitionedTable();

    sql("INSERT OVERWRITE db.t PARTITION (dt = 'a') SELECT id, v FROM db.t WHERE dt = 'a'");
    assertThat(bucketCounts()).isEqualTo(Map.of("a", new TreeSet<>(List.of(4))));

    // an upsert of existing keys lands in the buckets that hold them: one row per key
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'new', 'a' FROM range(10, 30)");
    assertThat(rows("SELECT v, count(*) FROM db.t GROUP BY v")).containsExactly("new,20", "old,10");
    assertThat(rows("SELECT count(DISTINCT id) FROM db.t")).containsExactly("30");
  }

  @Test
  void dynamicOverwriteRescalesTheWrittenPartitions() {
    createPartitionedTable();
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '2')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'old', 'c' FROM range(0, 20)");
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')");
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");

    sql("INSERT OVERWRITE db.t SELECT id, v, dt FROM db.t WHERE dt = 'c'");

    assertThat(bucketCounts())
        .isEqualTo(Map.of("a", new TreeSet<>(List.of(2)), "c", new TreeSet<>(List.of(4))));
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'new', 'c' FROM range(0, 5)");
    assertThat(rows("SELECT v, count(*) FROM db.t WHERE dt = 'c' GROUP BY v"))
        .containsExactly("new,5", "old,15");
    assertRefused(
        () -> sql("INSERT INTO db.t VALUES (1, 'new', 'a')"), "partition {dt=a} of table db.t");
  }

  @Test
  void anUnpartitionedTableIsRefusedAsAWhole() {
    sql(
        "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2')");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'old' FROM range(0, 20)");
    sql("ALTER TABLE db.t SET TBLPROPERTIES ('bucket' = '4')");

    assertRefused(() -> sql("INSERT INTO db.t VALUES (100, 'new')"), "table db.t");

    sql("INSERT OVERWRITE db.t SELECT * FROM db.t");
    sql("INSERT INTO db.t SELECT CAST(id AS INT), 'new' FROM range(15, 25)");
    assertThat(bucketCounts()).isEqualTo(Map.of("", new TreeSet<>(List.of(4))));
    assertThat(rows("SELECT v, count(*) FROM db.t GROUP BY v")).containsExactly("new,10", "old,15");
  }
}

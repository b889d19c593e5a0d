package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dynamic-bucket tables ({@code 'bucket' = '-1'}, the default of primary-key tables): keys get
 * buckets through HASH index files, buckets are added as a partition grows, and a commit whose
 * partitions' index changed under it fails.
 */
class DynamicBucketIT extends SparkTestBase {
  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS dyn");
  }

  private FileStoreTable table(String name) {
    return FileStoreTable.load(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(tablePath("dyn", name).toUri()),
        "dyn." + name);
  }

  private List<IndexManifestEntry> hashEntries(String name) {
    FileStoreTable t = table(name);
    Snapshot latest = t.latestSnapshot().orElseThrow();
    return new IndexManifests(t.fileIO(), t.paths())
        .read(latest.indexManifest()).stream()
            .filter(e -> IndexFileMeta.HASH.equals(e.indexFile().indexType()))
            .toList();
  }

  @Test
  void primaryKeyTableWithoutBucketIsDynamic() {
    sql("CREATE TABLE dyn.plain (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id')");
    sql("INSERT INTO dyn.plain VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    sql("INSERT INTO dyn.plain VALUES (2, 'b2'), (4, 'd')");

    assertThat(rows("SELECT * FROM dyn.plain")).containsExactly("1,a", "2,b2", "3,c", "4,d");
    assertThat(table("plain").bucketCount()).isEqualTo(-1);
    // every key's hash is in exactly one bucket's index
    long hashes = hashEntries("plain").stream().mapToLong(e -> e.indexFile().rowCount()).sum();
    assertThat(hashes).isEqualTo(4);
    assertThat(rows("SELECT count(*) FROM (SELECT DISTINCT __paimon_bucket, id FROM dyn.plain)"))
        .containsExactly("4");
  }

  @Test
  void growingPartitionGetsNewBucketsAndReadsStayCorrect() {
    sql(
        "CREATE TABLE dyn.grow (id INT, dt STRING, v INT) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'dynamic-bucket.target-row-num' = '10')");
    sql("INSERT INTO dyn.grow SELECT id, 'a', id FROM range(0, 25) AS r(id)");
    List<String> firstBuckets = rows("SELECT DISTINCT __paimon_bucket FROM dyn.grow");
    sql("INSERT INTO dyn.grow SELECT id, 'a', id * 10 FROM range(15, 60) AS r(id)");
    sql("INSERT INTO dyn.grow SELECT id, 'b', id FROM range(0, 5) AS r(id)");

    assertThat(rows("SELECT count(*), count(DISTINCT dt, id), sum(v) FROM dyn.grow"))
        .containsExactly("65,65," + (sumOf(0, 15) + 10 * sumOf(15, 60) + sumOf(0, 5)));
    // no bucket holds more keys than the target: 60 keys in partition a need 6 buckets or more
    List<Object[]> perBucket =
        sql("SELECT dt, __paimon_bucket, count(*) FROM dyn.grow GROUP BY dt, __paimon_bucket");
    for (Object[] bucket : perBucket) {
      assertThat((Long) bucket[2]).isLessThanOrEqualTo(10L);
    }
    assertThat(perBucket.stream().filter(b -> "a".equals(b[0])).count())
        .isGreaterThanOrEqualTo(6)
        .isGreaterThan(firstBuckets.size());
    // each key stayed in the bucket it was first given
    assertThat(
            rows("SELECT count(DISTINCT __paimon_bucket) FROM dyn.grow WHERE dt = 'a' AND id < 25"))
        .containsExactly(String.valueOf(firstBuckets.size()));
    long hashes = hashEntries("grow").stream().mapToLong(e -> e.indexFile().rowCount()).sum();
    assertThat(hashes).isEqualTo(65);
  }

  private static long sumOf(int from, int to) {
    long sum = 0;
    for (int i = from; i < to; i++) {
      sum += i;
    }
    return sum;
  }

  @Test
  void secondWriterWhoseIndexChangedFailsCleanly() {
    sql("CREATE TABLE dyn.race (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id')");
    sql("INSERT INTO dyn.race VALUES (1, 'a')");
    FileStoreTable t = table("race");
    long base = t.latestSnapshot().orElseThrow().id();
    // a writer that read the index at `base` and commits late
    TableWrite late = t.newWrite(base, false);
    late.write(row(1, "late"));
    late.write(row(2, "late"));
    List<CommitMessage> messages = late.prepareCommit();
    // meanwhile another writer adds key 2 (and so changes the index)
    sql("INSERT INTO dyn.race VALUES (2, 'other'), (3, 'other')");

    FileStoreCommit commit = t.newCommit("late-writer").withDynamicBucketBase(base);
    assertThatThrownBy(() -> commit.commit(messages, Snapshot.BATCH_COMMIT_IDENTIFIER))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Commit to dynamic-bucket table dyn.race conflicts with snapshot")
        .hasMessageContaining("another write changed its HASH index since this write began")
        .hasMessageContaining(
            "Nothing was committed. Dynamic-bucket tables take one writer at a time");
    commit.abort(messages, base);

    assertThat(rows("SELECT * FROM dyn.race")).containsExactly("1,a", "2,other", "3,other");
    assertThat(rows("SELECT count(DISTINCT __paimon_bucket, id) FROM dyn.race"))
        .containsExactly("3");
    // the late writer's data files were deleted
    for (CommitMessage message : messages) {
      message
          .newFiles()
          .forEach(
              f ->
                  assertThat(filesUnder(tablePath("dyn", "race")))
                      .noneMatch(p -> p.endsWith(f.fileName())));
    }
  }

  @Test
  void writerWhosePartitionsIndexDidNotChangeCommits() {
    sql(
        "CREATE TABLE dyn.parts (id INT, dt STRING, v STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id')");
    sql("INSERT INTO dyn.parts VALUES (1, 'a', 'x')");
    FileStoreTable t = table("parts");
    long base = t.latestSnapshot().orElseThrow().id();
    TableWrite late = t.newWrite(base, false);
    late.write(row3(2, "a", "late"));
    List<CommitMessage> messages = late.prepareCommit();
    // another partition changes: no conflict for partition a
    sql("INSERT INTO dyn.parts VALUES (1, 'b', 'y')");
    t.newCommit("late-writer")
        .withDynamicBucketBase(base)
        .commit(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
    assertThat(rows("SELECT * FROM dyn.parts")).containsExactly("1,a,x", "1,b,y", "2,a,late");
  }

  @Test
  void deleteUpdateAndMergeFindTheKeysBuckets() {
    sql(
        "CREATE TABLE dyn.dml (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'dynamic-bucket.target-row-num' = '3')");
    sql("INSERT INTO dyn.dml SELECT id, 'v' FROM range(0, 20) AS r(id)");
    sql("DELETE FROM dyn.dml WHERE id %% 2 = 0");
    sql("UPDATE dyn.dml SET v = 'u' WHERE id < 6");
    sql(
        "MERGE INTO dyn.dml t USING (SELECT id FROM range(15, 25) AS r(id)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET v = 'm' WHEN NOT MATCHED THEN INSERT (id, v)"
            + " VALUES (s.id, 'n')");
    assertThat(rows("SELECT id, v FROM dyn.dml WHERE id < 10"))
        .containsExactly("1,u", "3,u", "5,u", "7,v", "9,v");
    assertThat(rows("SELECT count(*), count(DISTINCT id) FROM dyn.dml")).containsExactly("17,17");
    assertThat(rows("SELECT v, count(*) FROM dyn.dml WHERE id >= 15 GROUP BY v"))
        .containsExactly("m,3", "n,7");
  }

  @Test
  void insertOverwriteKeepsOneBucketPerKey() {
    sql(
        "CREATE TABLE dyn.ow (id INT, dt STRING, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'dynamic-bucket.target-row-num' = '4')");
    sql("INSERT INTO dyn.ow SELECT id, 'a', 'old' FROM range(0, 12) AS r(id)");
    sql("INSERT OVERWRITE dyn.ow PARTITION (dt = 'a') SELECT id, 'new' FROM range(6, 18) AS r(id)");
    sql("INSERT INTO dyn.ow SELECT id, 'a', 'after' FROM range(0, 8) AS r(id)");
    assertThat(rows("SELECT v, count(*) FROM dyn.ow GROUP BY v"))
        .containsExactly("after,8", "new,10");
    assertThat(rows("SELECT count(DISTINCT id), count(DISTINCT __paimon_bucket, id) FROM dyn.ow"))
        .containsExactly("18,18");
  }

  /** The examples of docs/merge-engines.md and seed 001, written as Paimon users do: no bucket. */
  @Test
  void mergeEngineExamplesWithoutBucketRun() {
    sql(
        "CREATE TABLE dyn.groups (k INT, a INT, b INT, g_1 INT, c INT, d INT, g_2 INT)"
            + " TBLPROPERTIES ('primary-key' = 'k', 'merge-engine' = 'partial-update',"
            + " 'fields.g_1.sequence-group' = 'a,b', 'fields.g_2.sequence-group' = 'c,d')");
    sql("INSERT INTO dyn.groups VALUES (1, 1, 1, 1, 1, 1, 1)");
    sql("INSERT INTO dyn.groups VALUES (1, 2, 2, 2, 2, 2, CAST(NULL AS INT))");
    assertThat(rows("SELECT * FROM dyn.groups")).containsExactly("1,2,2,2,1,1,1");
    sql("INSERT INTO dyn.groups VALUES (1, 3, 3, 1, 3, 3, 3)");
    assertThat(rows("SELECT * FROM dyn.groups")).containsExactly("1,2,2,2,3,3,3");

    sql(
        "CREATE TABLE dyn.group_aggs (k INT, a INT, b INT, g_1 INT, c INT, d INT, g_2 INT)"
            + " TBLPROPERTIES ('primary-key' = 'k', 'merge-engine' = 'partial-update',"
            + " 'fields.g_1.sequence-group' = 'a,b', 'fields.g_2.sequence-group' = 'c,d',"
            + " 'fields.b.aggregate-function' = 'max', 'fields.d.aggregate-function' = 'sum')");
    sql("INSERT INTO dyn.group_aggs VALUES (1, 1, 1, 1, 1, 1, 1)");
    sql("INSERT INTO dyn.group_aggs VALUES (1, 2, 2, 2, 2, 2, CAST(NULL AS INT))");
    sql("INSERT INTO dyn.group_aggs VALUES (1, 3, 3, 1, 3, 3, 3)");
    assertThat(rows("SELECT * FROM dyn.group_aggs")).containsExactly("1,2,3,2,3,4,3");

    sql(
        "CREATE TABLE dyn.first_seen (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'merge-engine' = 'first-row')");
    sql("INSERT INTO dyn.first_seen VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO dyn.first_seen VALUES (1, 'a2'), (3, 'c')");
    assertThat(rows("SELECT * FROM dyn.first_seen")).containsExactly("1,a", "2,b", "3,c");

    sql(
        "CREATE TABLE dyn.dv (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO dyn.dv VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO dyn.dv VALUES (1, 'a2'), (3, 'c')");
    assertThat(rows("SELECT * FROM dyn.dv")).containsExactly("1,a2", "2,b", "3,c");

    sql(
        "CREATE TABLE dyn.order_wide (order_id BIGINT, user_name STRING, address STRING,"
            + " sub_orders ARRAY<STRUCT<sub_order_id: BIGINT, product_name: STRING, price:"
            + " BIGINT>>) TBLPROPERTIES ('primary-key' = 'order_id', 'merge-engine' ="
            + " 'aggregation', 'fields.sub_orders.aggregate-function' = 'nested_update',"
            + " 'fields.sub_orders.nested-key' = 'sub_order_id')");
    sql("INSERT INTO dyn.order_wide VALUES (1, 'Alice', 'add1', NULL), (2, 'Bob', 'add2', NULL)");
    sql(
        "INSERT INTO dyn.order_wide SELECT order_id, NULL, NULL, ARRAY(NAMED_STRUCT("
            + "'sub_order_id', sub, 'product_name', name, 'price', price)) FROM VALUES"
            + " (1L, 11L, 'apple', 10L), (1L, 12L, 'banana', 20L), (2L, 21L, 'cherry', 30L),"
            + " (2L, 22L, 'peach', 40L) AS s(order_id, sub, name, price)");
    sql(
        "INSERT INTO dyn.order_wide VALUES (2, NULL, NULL, ARRAY(NAMED_STRUCT('sub_order_id',"
            + " 21L, 'product_name', 'cherry', 'price', 50L)))");
    assertThat(
            rows(
                "SELECT order_id, user_name, address, array_join(transform(array_sort(sub_orders),"
                    + " s -> concat_ws(':', s.sub_order_id, s.product_name, s.price)), ';')"
                    + " FROM dyn.order_wide"))
        .containsExactly(
            "1,Alice,add1,11:apple:10;12:banana:20", "2,Bob,add2,21:cherry:50;22:peach:40");
  }

  @Test
  void badOptionsAreRefusedNamingTheOption() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE dyn.fixed (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'bucket' = '2', 'dynamic-bucket.target-row-num' = '5')"))
        .hasMessageContaining(
            "Option 'dynamic-bucket.target-row-num' = '5' on table dyn.fixed needs a"
                + " dynamic-bucket table (a primary key and 'bucket' = -1), but 'bucket' = 2.");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE dyn.bk (id INT, k INT, v STRING) TBLPROPERTIES"
                        + " ('primary-key' = 'id,k', 'bucket-key' = 'k')"))
        .hasMessageContaining(
            "Option 'bucket-key' = 'k' on table dyn.bk cannot be used with 'bucket' = -1"
                + " (dynamic bucket)");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE dyn.max (id INT) TBLPROPERTIES ('primary-key' = 'id',"
                        + " 'dynamic-bucket.max-buckets' = '0')"))
        .hasMessageContaining(
            "Invalid value '0' for option 'dynamic-bucket.max-buckets' on table dyn.max");
    assertThat(rows("SHOW TABLES IN dyn LIKE 'fixed|bk|max'")).isEmpty();
  }

  private static GenericInternalRow row(int id, String v) {
    return new GenericInternalRow(new Object[] {id, UTF8String.fromString(v)});
  }

  private static GenericInternalRow row3(int id, String dt, String v) {
    return new GenericInternalRow(
        new Object[] {id, UTF8String.fromString(dt), UTF8String.fromString(v)});
  }
}

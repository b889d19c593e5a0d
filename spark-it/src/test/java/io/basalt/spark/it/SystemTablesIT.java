package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The read-only system tables {@code t$snapshots}, {@code t$files} and friends. */
class SystemTablesIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS st");
  }

  /** Three upserts into a partitioned primary-key table, then a compaction: snapshots 1 to 4. */
  private void pkTable(String table) {
    sql(
        "CREATE TABLE st.%s (dt STRING, id INT, v STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')",
        table);
    sql("INSERT INTO st.%s VALUES ('a', 1, 'x'), ('a', 2, 'y'), ('b', 3, 'z')", table);
    sql("INSERT INTO st.%s VALUES ('a', 1, 'x2'), ('b', 4, 'w')", table);
    sql("INSERT INTO st.%s VALUES ('b', 3, 'z2')", table);
    sql("CALL sys.compact(table => 'st.%s')", table);
  }

  @Test
  void snapshots() {
    pkTable("snaps");
    assertThat(
            rows(
                "SELECT snapshot_id, schema_id, commit_kind, delta_record_count FROM"
                    + " st.`snaps$snapshots` WHERE commit_kind = 'APPEND'"))
        .containsExactly("1,0,APPEND,3", "2,0,APPEND,2", "3,0,APPEND,1");
    assertThat(rows("SELECT snapshot_id FROM st.`snaps$snapshots` WHERE commit_kind = 'COMPACT'"))
        .containsExactly("4");
    assertThat(
            rows(
                "SELECT count(*) FROM st.`snaps$snapshots` WHERE commit_time <= current_timestamp()"
                    + " AND commit_user IS NOT NULL AND base_manifest_list LIKE 'manifest-list-%%'"
                    + " AND delta_manifest_list LIKE 'manifest-list-%%'"))
        .containsExactly("4");
    // the snapshots' own files agree
    Path snapshotDir = tablePath("st", "snaps").resolve("snapshot");
    assertThat(fileNames(snapshotDir, "snapshot-"))
        .containsExactlyInAnyOrder("snapshot-1", "snapshot-2", "snapshot-3", "snapshot-4");
    // total records of the last append: 6 rows written, merged on read
    assertThat(rows("SELECT total_record_count FROM st.`snaps$snapshots` WHERE snapshot_id = 3"))
        .containsExactly("6");
  }

  @Test
  void optionsAndSchemas() {
    pkTable("opts");
    sql("ALTER TABLE st.opts SET TBLPROPERTIES ('snapshot.num-retained.max' = '7')");
    assertThat(
            rows(
                "SELECT * FROM st.`opts$options` WHERE key IN ('bucket', 'snapshot.num-retained.max')"))
        .containsExactly("bucket,2", "snapshot.num-retained.max,7");
    assertThat(rows("SELECT schema_id, partition_keys, primary_keys FROM st.`opts$schemas`"))
        .containsExactly("0,[\"dt\"],[\"dt\",\"id\"]", "1,[\"dt\"],[\"dt\",\"id\"]");
    assertThat(
            rows(
                "SELECT schema_id FROM st.`opts$schemas` WHERE options LIKE"
                    + " '%%\"snapshot.num-retained.max\":\"7\"%%'"))
        .containsExactly("1");
    List<Object[]> fields =
        sql("SELECT fields, update_time FROM st.`opts$schemas` WHERE schema_id = 0");
    assertThat((String) fields.get(0)[0])
        .startsWith("[{\"id\":0,\"name\":\"dt\"")
        .contains("\"name\":\"id\"", "\"name\":\"v\"");
    assertThat(fields.get(0)[1]).isNotNull();
  }

  @Test
  void tags() {
    pkTable("tagged");
    sql("CALL sys.create_tag('st.tagged', 'first', 1)");
    sql("CALL sys.create_tag('st.tagged', 'last')");
    assertThat(rows("SELECT tag_name, snapshot_id, schema_id, record_count FROM st.`tagged$tags`"))
        .containsExactly("first,1,0,3", "last,4,0,4");
    // a join: each tag's snapshot commit time
    assertThat(
            rows(
                "SELECT t.tag_name, s.commit_kind FROM st.`tagged$tags` t JOIN"
                    + " st.`tagged$snapshots` s ON t.snapshot_id = s.snapshot_id AND t.commit_time"
                    + " = s.commit_time"))
        .containsExactly("first,APPEND", "last,COMPACT");
  }

  @Test
  void filesOfAPrimaryKeyTable() {
    pkTable("pkfiles");
    List<Object[]> files =
        sql(
            "SELECT partition, bucket, file_path, file_format, level, record_count,"
                + " file_size_in_bytes, min_key, max_key FROM st.`pkfiles$files`");
    assertThat(files).isNotEmpty();
    for (Object[] file : files) {
      assertThat((String) file[0]).isIn("[a]", "[b]");
      Path path = Path.of(java.net.URI.create((String) file[2]));
      assertThat(path).exists();
      assertThat(path.getParent().getFileName().toString()).isEqualTo("bucket-" + file[1]);
      assertThat(path.getParent().getParent().getFileName().toString())
          .isEqualTo("dt=" + ((String) file[0]).substring(1, 2));
      assertThat((String) file[2]).endsWith("." + file[3]);
      assertThat((Long) file[6]).isEqualTo(fileSize(path));
      // the trimmed primary key (id) without the partition key
      assertThat((String) file[7]).matches("\\[\\d\\]");
      assertThat((String) file[8]).matches("\\[\\d\\]");
    }
    // the files of the latest snapshot hold its total records
    assertThat(
            rows(
                "SELECT sum(f.record_count) = max(s.total_record_count) FROM st.`pkfiles$files` f"
                    + " JOIN st.`pkfiles$snapshots` s ON f.schema_id = s.schema_id WHERE"
                    + " s.snapshot_id = 4"))
        .containsExactly("true");
    assertThat(
            rows(
                "SELECT min_key, max_key FROM st.`pkfiles$files` WHERE partition = '[a]' AND level"
                    + " = (SELECT max(level) FROM st.`pkfiles$files` WHERE partition = '[a]')"))
        .allSatisfy(row -> assertThat(row).matches("\\[[12]\\],\\[[12]\\]"));
  }

  private static long fileSize(Path path) {
    try {
      return Files.size(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void filesOfAnAppendTableWithStats() {
    sql("CREATE TABLE st.app (id INT, v STRING)");
    // one task, so one data file
    sql(
        "INSERT INTO st.app SELECT /*+ REPARTITION(1) */ * FROM VALUES (1, 'a'), (5, null), (3,"
            + " 'c') AS src(id, v)");
    assertThat(
            rows(
                "SELECT partition, bucket, level, record_count, min_key, max_key,"
                    + " null_value_counts, min_value_stats, max_value_stats, min_sequence_number,"
                    + " max_sequence_number, schema_id FROM st.`app$files`"))
        .containsExactly("[],0,0,3,null,null,{id=0, v=1},{id=1, v=a},{id=5, v=c},0,2,0");
    assertThat(rows("SELECT count(*) FROM st.`app$files` WHERE creation_time IS NOT NULL"))
        .containsExactly("1");
    // Paimon's later columns
    assertThat(
            rows(
                "SELECT deleteRowCount, file_source, first_row_id, write_cols FROM st.`app$files`"))
        .containsExactly("0,APPEND,null,null");
    assertThat(
            rows(
                "SELECT min_partition_stats, max_partition_stats, min_row_id, max_row_id FROM"
                    + " st.`app$manifests`"))
        .containsExactly("[],[],null,null");
    assertThat(rows("SELECT next_row_id, operation, writer_version FROM st.`app$snapshots`"))
        .containsExactly("0,null,null");
  }

  @Test
  void manifestsPartitionsAndBuckets() {
    pkTable("summary");
    long liveFiles = (Long) sql("SELECT count(*) FROM st.`summary$files`").get(0)[0];
    assertThat(
            rows(
                "SELECT sum(num_added_files) - sum(num_deleted_files), min(schema_id),"
                    + " min(file_size) > 0 FROM st.`summary$manifests`"))
        .containsExactly(liveFiles + ",0,true");
    assertThat(
            rows(
                "SELECT count(*) FROM st.`summary$manifests` m WHERE EXISTS (SELECT 1 FROM"
                    + " st.`summary$manifests` n WHERE n.file_name = m.file_name)"))
        .hasSize(1);
    assertThat(
            rows(
                // t$partitions names a partition like its directory, t$files lists its values
                "SELECT p.partition, p.record_count, p.file_count, p.file_size_in_bytes ="
                    + " f.bytes, p.last_update_time IS NOT NULL FROM st.`summary$partitions` p JOIN"
                    + " (SELECT partition, sum(file_size_in_bytes) AS bytes, sum(record_count) AS"
                    + " records, count(*) AS n FROM st.`summary$files` GROUP BY partition) f ON"
                    + " p.partition = concat('dt=', substr(f.partition, 2, length(f.partition) -"
                    + " 2)) AND p.record_count = f.records AND p.file_count = f.n"))
        .hasSize(2)
        .allSatisfy(row -> assertThat(row).endsWith(",true,true"));
    assertThat(
            rows(
                "SELECT concat('dt=', substr(partition, 2, length(partition) - 2)),"
                    + " sum(record_count), sum(file_count) FROM st.`summary$buckets` GROUP BY"
                    + " partition"))
        .isEqualTo(rows("SELECT partition, record_count, file_count FROM st.`summary$partitions`"));
    assertThat(rows("SELECT DISTINCT bucket FROM st.`summary$buckets` WHERE bucket NOT IN (0, 1)"))
        .isEmpty();
    // the manifests' partition stats cover partitions a and b
    assertThat(
            rows(
                "SELECT min(min_partition_stats), max(max_partition_stats) FROM"
                    + " st.`summary$manifests`"))
        .containsExactly("[a],[b]");
    // compaction rewrote files (COMPACT); a file it only moved up a level stays APPEND
    assertThat(
            rows(
                "SELECT count(*) = %d, count_if(file_source = 'COMPACT') > 0 FROM"
                    + " st.`summary$files` WHERE file_source IN ('APPEND', 'COMPACT')",
                liveFiles))
        .containsExactly("true,true");
  }

  @Test
  void partitionsHaveDirectoryNamesAndPaimonsColumns() {
    sql(
        "CREATE TABLE st.hourly (id INT, v STRING, dt STRING, hh STRING) PARTITIONED BY (dt, hh)"
            + " TBLPROPERTIES ('primary-key' = 'dt,hh,id', 'bucket' = '2',"
            + " 'deletion-vectors.enabled' = 'true')");
    sql(
        "INSERT INTO st.hourly VALUES (1, 'a', '2024-10-09', '01'), (2, 'b', '2024-10-09', '01'),"
            + " (3, 'c', '2024-10-09', '02')");
    sql("DELETE FROM st.hourly WHERE id = 1");
    assertThat(spark.sql("SELECT * FROM st.`hourly$partitions`").schema().fieldNames())
        .containsExactly(
            "partition",
            "record_count",
            "file_size_in_bytes",
            "file_count",
            "last_update_time",
            "created_at",
            "created_by",
            "updated_by",
            "options",
            "total_buckets",
            "done",
            "deleted_record_count");
    assertThat(
            rows(
                "SELECT partition, created_at, created_by, updated_by, options, total_buckets,"
                    + " done FROM st.`hourly$partitions`"))
        .containsExactly(
            "dt=2024-10-09/hh=01,null,null,null,null,2,false",
            "dt=2024-10-09/hh=02,null,null,null,null,2,false");
    // the DELETE on a deletion-vector table marked one row of one partition deleted
    assertThat(rows("SELECT partition, deleted_record_count FROM st.`hourly$partitions`"))
        .containsExactly("dt=2024-10-09/hh=01,1", "dt=2024-10-09/hh=02,0");
    assertThat(rows("SELECT DISTINCT partition FROM st.`hourly$buckets`"))
        .containsExactly("[2024-10-09, 01]", "[2024-10-09, 02]");

    // a null value shows as the default partition name; an append table has one bucket
    sql("CREATE TABLE st.nulls (id INT, dt STRING, hh INT) PARTITIONED BY (dt, hh)");
    sql("INSERT INTO st.nulls VALUES (1, null, 7), (2, 'x', null)");
    assertThat(
            rows(
                "SELECT partition, total_buckets, deleted_record_count FROM st.`nulls$partitions`"))
        .containsExactly(
            "dt=__DEFAULT_PARTITION__/hh=7,-1,0", "dt=x/hh=__DEFAULT_PARTITION__,-1,0");
  }

  @Test
  void snapshotSystemTablesTimeTravel() {
    pkTable("history");
    sql("CALL sys.create_tag(table => 'st.history', tag => 'first', snapshot => 1)");
    assertThat(rows("SELECT sum(record_count) FROM st.`history$files` VERSION AS OF 1"))
        .containsExactly("3");
    assertThat(rows("SELECT sum(record_count) FROM st.`history$files` VERSION AS OF 3"))
        .containsExactly("6");
    assertThat(rows("SELECT sum(record_count) FROM st.`history$files`")).containsExactly("4");
    assertThat(rows("SELECT sum(record_count) FROM st.`history$partitions` VERSION AS OF 'first'"))
        .containsExactly("3");
    long second =
        (Long)
            sql("SELECT unix_millis(commit_time) FROM st.`history$snapshots` WHERE snapshot_id = 2")
                .get(0)[0];
    assertThat(
            rows(
                "SELECT sum(record_count) FROM st.`history$buckets` TIMESTAMP AS OF"
                    + " timestamp_millis(%d)",
                second))
        .containsExactly("5");
    assertThat(rows("SELECT count(*) > 0 FROM st.`history$manifests` VERSION AS OF 1"))
        .containsExactly("true");
    assertThatThrownBy(() -> sql("SELECT * FROM st.`history$snapshots` VERSION AS OF 1"))
        .hasMessageContaining("System table st.history$snapshots does not support time travel")
        .hasMessageContaining("buckets, files, manifests, partitions");
  }

  @Test
  void emptyTableHasEmptySystemTables() {
    sql("CREATE TABLE st.empty (id INT)");
    for (String system :
        List.of("snapshots", "tags", "files", "manifests", "partitions", "buckets")) {
      assertThat(rows("SELECT * FROM st.`empty$%s`", system)).as(system).isEmpty();
    }
    assertThat(rows("SELECT schema_id FROM st.`empty$schemas`")).containsExactly("0");
  }

  @Test
  void unknownSystemTableNamesTheKnownOnes() {
    sql("CREATE TABLE st.known (id INT)");
    assertThatThrownBy(() -> sql("SELECT * FROM st.`known$nope`"))
        .hasMessageContaining("Unknown system table 'nope' of table")
        .hasMessageContaining("known$nope")
        .hasMessageContaining(
            "snapshots, schemas, options, tags, files, manifests, partitions, buckets");
    assertThatThrownBy(() -> sql("SELECT * FROM st.`missing$snapshots`"))
        .hasMessageContaining("missing");
  }
}

package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Compaction in writers, full compaction, sequence fields and compaction options, via SQL. */
class CompactionIT extends SparkTestBase {

  private FileStoreTable engineTable(String table) {
    return FileStoreTable.load(
        FileIO.local(), new Path(tablePath("db", table).toUri()), "db." + table);
  }

  /** The number of sorted runs of each bucket: level-0 files, plus one per higher level. */
  private List<Integer> runsPerBucket(String table) {
    List<Integer> runs = new ArrayList<>();
    for (DataSplit split : engineTable(table).newScan().plan().splits()) {
      Set<Integer> levels = new HashSet<>();
      int level0 = 0;
      for (DataFileMeta file : split.files()) {
        if (file.level() == 0) {
          level0++;
        } else {
          levels.add(file.level());
        }
      }
      runs.add(level0 + levels.size());
    }
    return runs;
  }

  private List<CommitKind> commitKinds(String table) {
    FileStoreTable engine = engineTable(table);
    List<CommitKind> kinds = new ArrayList<>();
    long latest = engine.snapshotManager().latestSnapshotId().getAsLong();
    for (long id = 1; id <= latest; id++) {
      kinds.add(engine.snapshotManager().snapshot(id).commitKind());
    }
    return kinds;
  }

  @Test
  void writersCompactWhenSortedRunsReachTheTrigger() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.auto (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'num-sorted-run.compaction-trigger' = '3')");
    TreeMap<Integer, String> model = new TreeMap<>();
    for (int commit = 0; commit < 10; commit++) {
      int from = commit * 5;
      sql(
          "INSERT INTO db.auto SELECT CAST(id AS INT), CONCAT('v', id, '-c%d') FROM range(%d, %d)",
          commit, from, from + 20);
      for (int id = from; id < from + 20; id++) {
        model.put(id, "v" + id + "-c" + commit);
      }
      assertThat(runsPerBucket("auto")).allMatch(runs -> runs < 3 + 1);
    }
    assertThat(commitKinds("auto")).contains(CommitKind.COMPACT);
    List<String> expected = new ArrayList<>();
    model.forEach((id, v) -> expected.add(id + "," + v));
    expected.sort(null);
    assertThat(rows("SELECT * FROM db.auto")).isEqualTo(expected);
  }

  @Test
  void fullCompactionEveryCommitLeavesOneRawRunPerBucket() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.full (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'full-compaction.delta-commits' = '1')");
    sql("INSERT INTO db.full SELECT CAST(id AS INT), 'a' FROM range(0, 100)");
    sql("INSERT INTO db.full SELECT CAST(id AS INT), 'b' FROM range(50, 150)");

    FileStoreTable engine = engineTable("full");
    List<DataSplit> splits = engine.newScan().plan().splits();
    assertThat(splits).hasSize(2).allMatch(DataSplit::rawConvertible);
    for (DataSplit split : splits) {
      assertThat(split.files()).allMatch(f -> f.level() == 5);
    }
    Snapshot latest = engine.latestSnapshot().get();
    assertThat(latest.commitKind()).isEqualTo(CommitKind.COMPACT);
    assertThat(latest.properties()).containsEntry(Snapshot.FULL_COMPACTION_PROPERTY, "true");
    assertThat(rows("SELECT v, count(*) FROM db.full GROUP BY v")).containsExactly("a,50", "b,100");
  }

  @Test
  void sequenceFieldKeepsTheNewestVersionWhateverTheArrivalOrder() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.seq (id INT, ts BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'sequence.field' = 'ts')");
    sql("INSERT INTO db.seq VALUES (1, 10, 'new'), (2, 5, 'old')");
    sql("INSERT INTO db.seq VALUES (1, 3, 'late-old'), (2, 7, 'newer')");
    // within one statement too: the version with the larger ts wins
    sql("INSERT INTO db.seq VALUES (3, 2, 'x'), (3, 9, 'y'), (3, 4, 'z')");
    assertThat(rows("SELECT id, v FROM db.seq")).containsExactly("1,new", "2,newer", "3,y");
    // a query that does not select the sequence field still merges by it
    assertThat(rows("SELECT v FROM db.seq WHERE id = 1")).containsExactly("new");

    sql(
        "CREATE TABLE db.seqdesc (id INT, ts BIGINT, v STRING) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'sequence.field' = 'ts',"
            + " 'sequence.field.sort-order' = 'descending')");
    sql("INSERT INTO db.seqdesc VALUES (1, 10, 'big')");
    sql("INSERT INTO db.seqdesc VALUES (1, 3, 'small')");
    sql("INSERT INTO db.seqdesc VALUES (1, 7, 'middle')");
    assertThat(rows("SELECT v FROM db.seqdesc")).containsExactly("small");
  }

  @Test
  void invalidCompactionAndSequenceOptionsFailAtCreateAndAlter() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    String base =
        "CREATE TABLE db.bad (id INT, v STRING, tags ARRAY<STRING>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', %s)";
    assertThatThrownBy(() -> sql(base, "'num-sorted-run.compaction-trigger' = '-1'"))
        .hasMessageContaining("num-sorted-run.compaction-trigger")
        .hasMessageContaining("-1");
    assertThatThrownBy(
            () ->
                sql(
                    base,
                    "'num-sorted-run.compaction-trigger' = '5',"
                        + " 'num-sorted-run.stop-trigger' = '3'"))
        .hasMessageContaining("num-sorted-run.stop-trigger")
        .hasMessageContaining("at least");
    assertThatThrownBy(() -> sql(base, "'sequence.field' = 'nope'"))
        .hasMessageContaining("'nope'")
        .hasMessageContaining("sequence.field");
    assertThatThrownBy(() -> sql(base, "'sequence.field' = 'tags'"))
        .hasMessageContaining("tags")
        .hasMessageContaining("cannot be a 'sequence.field'");
    assertThat(sql("SHOW TABLES IN db").stream().map(r -> r[1])).doesNotContain("bad");

    sql(String.format(base, "'write-only' = 'true'"));
    assertThatThrownBy(
            () -> sql("ALTER TABLE db.bad SET TBLPROPERTIES ('compaction.size-ratio' = '-5')"))
        .hasMessageContaining("compaction.size-ratio");
    assertThat(engineTable("bad").schema().id()).isZero();
    assertThat(engineTable("bad").schema().options())
        .containsAllEntriesOf(Map.of("write-only", "true"));
  }
}

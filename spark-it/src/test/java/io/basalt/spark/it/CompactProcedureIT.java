package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.manifest.DataFileMeta;
import io.basalt.options.CompactionSettings;
import io.basalt.snapshot.CommitKind;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code CALL sys.compact}: full and minor compaction of primary-key and append tables. */
class CompactProcedureIT extends CompactTestSupport {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS %s", DB);
  }

  private void createPkTable(String name, String extraProperties) {
    sql(
        "CREATE TABLE %s.%s (id INT, v STRING, n BIGINT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '2', 'write-only' = 'true'%s)",
        DB, name, extraProperties);
  }

  /** Commit i upserts ids [3i, 3i+20): every commit overlaps the ones before it. */
  private void overlappingUpserts(String name, int commits) {
    for (int i = 0; i < commits; i++) {
      StringBuilder values = new StringBuilder();
      for (int id = 3 * i; id < 3 * i + 20; id++) {
        values.append(values.length() == 0 ? "" : ", ");
        values.append(String.format("(%d, 'c%d', %d)", id, i, (long) id * i));
      }
      sql("INSERT INTO %s.%s VALUES %s", DB, name, values);
    }
  }

  @Test
  void fullCompactionLeavesOneSortedRunPerBucket() {
    createPkTable("pk_full", "");
    overlappingUpserts("pk_full", 10);
    List<String> before = rows("SELECT * FROM %s.pk_full", DB);
    assertThat(latestSnapshotId("pk_full")).isEqualTo(10);
    assertThat(splits("pk_full")).allSatisfy(s -> assertThat(sortedRuns(s)).isGreaterThan(1));

    List<Object[]> result = sql("CALL sys.compact(table => '%s.pk_full')", DB);

    // Paimon's output: one row, result = true
    assertThat(result).hasSize(1);
    assertThat(result.get(0)).containsExactly(true);
    assertThat(latestSnapshotId("pk_full")).isEqualTo(11);
    assertThat(snapshot("pk_full", 11).commitKind()).isEqualTo(CommitKind.COMPACT);
    FileStoreTable table = table("pk_full");
    int maxLevel = CompactionSettings.of(table.options()).maxLevel();
    List<DataSplit> splits = splits("pk_full");
    assertThat(splits).hasSize(2);
    for (DataSplit split : splits) {
      assertThat(split.rawConvertible()).isTrue();
      assertThat(split.files()).allSatisfy(f -> assertThat(f.level()).isEqualTo(maxLevel));
    }
    assertThat(rows("SELECT * FROM %s.pk_full", DB)).isEqualTo(before);
    // one sorted run per bucket: the scan reads through Spark's vectorized Parquet reader
    assertThat(
            spark
                .sql(String.format("SELECT * FROM %s.pk_full", DB))
                .queryExecution()
                .executedPlan()
                .toString())
        .contains("ColumnarToRow")
        .contains("columnar=true");

    // already compacted: nothing to do, no new snapshot
    List<Object[]> again = sql("CALL sys.compact(table => '%s.pk_full')", DB);
    assertThat(again.get(0)).containsExactly(true);
    assertThat(latestSnapshotId("pk_full")).isEqualTo(11);
  }

  @Test
  void minorCompactionMergesOnlyWhatIsDue() {
    createPkTable("pk_minor", ", 'num-sorted-run.compaction-trigger' = '3'");
    overlappingUpserts("pk_minor", 8);
    List<String> before = rows("SELECT * FROM %s.pk_minor", DB);
    Map<String, Set<String>> filesBefore = liveFiles("pk_minor");

    List<Object[]> result =
        sql("CALL sys.compact(table => '%s.pk_minor', compact_strategy => 'minor')", DB);

    assertThat(result.get(0)[0]).isEqualTo(true);
    assertThat(snapshot("pk_minor", latestSnapshotId("pk_minor")).commitKind())
        .isEqualTo(CommitKind.COMPACT);
    for (DataSplit split : splits("pk_minor")) {
      // the universal picker stops once fewer runs than the trigger are left
      assertThat(sortedRuns(split)).isBetween(1, 2);
    }
    assertThat(liveFiles("pk_minor")).isNotEqualTo(filesBefore);
    assertThat(rows("SELECT * FROM %s.pk_minor", DB)).isEqualTo(before);
  }

  @Test
  void partitionsAndWhereSelectPartitions() {
    sql(
        "CREATE TABLE %s.parts (dt INT, hh STRING, id INT, v STRING) PARTITIONED BY (dt, hh)"
            + " TBLPROPERTIES ('primary-key' = 'dt,hh,id', 'bucket' = '1', 'write-only' = 'true')",
        DB);
    String[][] partitions = {{"20261001", "01"}, {"20261001", "02"}, {"20261002", "01"}};
    for (int i = 0; i < 3; i++) {
      for (String[] p : partitions) {
        sql(
            "INSERT INTO %s.parts VALUES (%s, '%s', 1, 'v%d'), (%s, '%s', %d, 'x')",
            DB, p[0], p[1], i, p[0], p[1], i + 2);
      }
    }
    List<String> before = rows("SELECT * FROM %s.parts", DB);
    TreeMap<String, Set<String>> files0 = liveFiles("parts");
    assertThat(files0).hasSize(3).allSatisfy((k, v) -> assertThat(v).hasSize(3));

    sql("CALL sys.compact(table => '%s.parts', partitions => 'dt=20261001,hh=02')", DB);
    TreeMap<String, Set<String>> files1 = liveFiles("parts");
    List<String> changed1 = changedKeys(files0, files1);
    assertThat(changed1).hasSize(1);
    assertThat(files1.get(changed1.get(0))).hasSize(1);

    sql("CALL sys.compact(table => '%s.parts', where => 'dt > 20261001')", DB);
    TreeMap<String, Set<String>> files2 = liveFiles("parts");
    List<String> changed2 = changedKeys(files1, files2);
    assertThat(changed2).hasSize(1).doesNotContainAnyElementsOf(changed1);

    // both remaining compacted partitions are no-ops; the last one is compacted now
    sql("CALL sys.compact(table => '%s.parts', partitions => 'dt=20261001;dt=20261002')", DB);
    assertThat(liveFiles("parts")).allSatisfy((k, v) -> assertThat(v).hasSize(1));
    assertThat(rows("SELECT * FROM %s.parts", DB)).isEqualTo(before);
    assertThat(snapshot("parts", latestSnapshotId("parts")).commitKind())
        .isEqualTo(CommitKind.COMPACT);
    assertThat(latestSnapshotId("parts")).isEqualTo(12);
  }

  private static List<String> changedKeys(
      Map<String, Set<String>> before, Map<String, Set<String>> after) {
    assertThat(after.keySet()).isEqualTo(before.keySet());
    List<String> changed = new ArrayList<>();
    for (String key : before.keySet()) {
      if (!before.get(key).equals(after.get(key))) {
        changed.add(key);
      }
    }
    return changed;
  }

  @Test
  void appendTableSmallFilesAreMerged() {
    sql(
        "CREATE TABLE %s.app_merge (id INT, v STRING) TBLPROPERTIES ('write-only' = 'true',"
            + " 'compaction.min.file-num' = '4', 'compaction.max.file-num' = '5')",
        DB);
    for (int i = 0; i < 7; i++) {
      // one row per commit: one file per commit
      sql("INSERT INTO %s.app_merge VALUES (%d, 'a%d')", DB, i, i);
    }
    List<String> before = rows("SELECT * FROM %s.app_merge", DB);
    assertThat(splits("app_merge"))
        .singleElement()
        .satisfies(s -> assertThat(s.files()).hasSize(7));

    // minor: merges the oldest max.file-num small files
    sql("CALL sys.compact(table => '%s.app_merge', compact_strategy => 'minor')", DB);
    assertThat(splits("app_merge"))
        .singleElement()
        .satisfies(s -> assertThat(s.files()).hasSize(3));
    assertThat(rows("SELECT * FROM %s.app_merge", DB)).isEqualTo(before);

    List<Object[]> full = sql("CALL sys.compact(table => '%s.app_merge')", DB);
    assertThat(full.get(0)).containsExactly(true);
    assertThat(splits("app_merge"))
        .singleElement()
        .satisfies(s -> assertThat(s.files()).hasSize(1));
    assertThat(rows("SELECT * FROM %s.app_merge", DB)).isEqualTo(before);
    assertThat(snapshot("app_merge", latestSnapshotId("app_merge")).commitKind())
        .isEqualTo(CommitKind.COMPACT);
  }

  /** Writes 4 commits of shuffled rows (a, b in [0, 60)) into two partitions of an append table. */
  private void shuffledAppendRows(String name) {
    sql(
        "CREATE TABLE %s.%s (a INT, b INT, s STRING, p INT) PARTITIONED BY (p) TBLPROPERTIES"
            + " ('write-only' = 'true', 'target-file-size' = '1 kb')",
        DB, name);
    List<String> values = new ArrayList<>();
    for (int a = 0; a < 60; a++) {
      for (int b = 0; b < 60; b++) {
        values.add(String.format("(%d, %d, 's%d_%d', %d)", a, b, a, b, (a + b) % 2));
      }
    }
    Collections.shuffle(values, new Random(42));
    int perCommit = values.size() / 4;
    for (int i = 0; i < 4; i++) {
      sql(
          "INSERT INTO %s.%s VALUES %s",
          DB, name, String.join(", ", values.subList(i * perCommit, (i + 1) * perCommit)));
    }
  }

  /** The (a, b) pairs of each partition, reading its files in the order they were written. */
  private List<List<int[]>> pairsInFileOrder(String name) {
    FileStoreTable table = table(name);
    List<List<int[]>> result = new ArrayList<>();
    for (DataSplit split : splits(name)) {
      List<DataFileMeta> files = new ArrayList<>(split.files());
      files.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber));
      DataSplit ordered =
          new DataSplit(
              split.snapshotId(),
              split.partition(),
              split.bucket(),
              split.totalBuckets(),
              files,
              true);
      List<int[]> pairs = new ArrayList<>();
      try (CloseableIterator<InternalRow> rows = table.newRead(table.rowType()).read(ordered)) {
        while (rows.hasNext()) {
          InternalRow row = rows.next();
          pairs.add(new int[] {row.getInt(0), row.getInt(1)});
        }
      }
      result.add(pairs);
    }
    return result;
  }

  private static boolean isSorted(List<int[]> pairs, Comparator<int[]> order) {
    for (int i = 1; i < pairs.size(); i++) {
      if (order.compare(pairs.get(i - 1), pairs.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static final Comparator<int[]> LEXICOGRAPHIC =
      Comparator.<int[]>comparingInt(p -> p[0]).thenComparingInt(p -> p[1]);

  /** Z-value of two small non-negative ints: a's bit above b's bit, from the top bit down. */
  private static long z(int a, int b) {
    long z = 0;
    for (int bit = 0; bit < 31; bit++) {
      z |= (long) ((a >>> bit) & 1) << (2 * bit + 1);
      z |= (long) ((b >>> bit) & 1) << (2 * bit);
    }
    return z;
  }

  private static final Comparator<int[]> Z_ORDER = Comparator.comparingLong(p -> z(p[0], p[1]));

  @Test
  void orderStrategySortsAppendFiles() {
    shuffledAppendRows("app_order");
    List<String> before = rows("SELECT * FROM %s.app_order", DB);
    assertThat(pairsInFileOrder("app_order")).noneMatch(p -> isSorted(p, LEXICOGRAPHIC));
    long snapshots = latestSnapshotId("app_order");

    List<Object[]> result =
        sql(
            "CALL sys.compact(table => '%s.app_order', order_strategy => 'order', order_by => 'a,b')",
            DB);

    assertThat(result.get(0)).containsExactly(true);
    assertThat(latestSnapshotId("app_order")).isEqualTo(snapshots + 1);
    assertThat(snapshot("app_order", snapshots + 1).commitKind()).isEqualTo(CommitKind.COMPACT);
    assertThat(rows("SELECT * FROM %s.app_order", DB)).isEqualTo(before);
    List<List<int[]>> partitions = pairsInFileOrder("app_order");
    assertThat(partitions).hasSize(2).allMatch(p -> isSorted(p, LEXICOGRAPHIC));
    // several sorted files per partition, so the check above spans file boundaries
    assertThat(splits("app_order")).allSatisfy(s -> assertThat(s.files().size()).isGreaterThan(1));
  }

  @Test
  void zorderStrategyClustersAppendFiles() {
    shuffledAppendRows("app_zorder");
    List<String> before = rows("SELECT * FROM %s.app_zorder", DB);
    assertThat(pairsInFileOrder("app_zorder")).noneMatch(p -> isSorted(p, Z_ORDER));

    sql(
        "CALL sys.compact(table => '%s.app_zorder', partitions => 'p=1',"
            + " order_strategy => 'zorder', order_by => 'a,b')",
        DB);

    assertThat(rows("SELECT * FROM %s.app_zorder", DB)).isEqualTo(before);
    // only partition p=1 was re-clustered
    List<List<int[]>> partitions = pairsInFileOrder("app_zorder");
    assertThat(partitions).filteredOn(p -> isSorted(p, Z_ORDER)).hasSize(1);
    assertThat(partitions)
        .filteredOn(p -> isSorted(p, Z_ORDER))
        .allSatisfy(p -> assertThat(p).allMatch(pair -> (pair[0] + pair[1]) % 2 == 1));
    // and z-order is not lexicographic order
    assertThat(partitions).noneMatch(p -> isSorted(p, LEXICOGRAPHIC));

    // zorder over one column is allowed: it sorts by that column
    sql(
        "CALL sys.compact(table => '%s.app_zorder', order_strategy => 'zorder', order_by => 'b')",
        DB);
    assertThat(pairsInFileOrder("app_zorder"))
        .allMatch(p -> isSorted(p, Comparator.comparingInt(pair -> pair[1])));
    assertThat(rows("SELECT * FROM %s.app_zorder", DB)).isEqualTo(before);
  }
}

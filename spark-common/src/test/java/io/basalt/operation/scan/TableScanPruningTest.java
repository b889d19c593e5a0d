package io.basalt.operation.scan;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.operation.write.TableWrite;
import io.basalt.predicate.Leaf;
import io.basalt.predicate.Predicate;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableScanPruningTest {
  @TempDir Path dir;

  private static Leaf idEq(long id) {
    return new Leaf("id", DataTypes.LongType, Leaf.Op.EQ, List.of(id));
  }

  private static Leaf stringEq(String column, String value) {
    return new Leaf(
        column, DataTypes.StringType, Leaf.Op.EQ, List.of(UTF8String.fromString(value)));
  }

  /** One commit per call, so each call makes one file per touched bucket. */
  private static void commit(FileStoreTable table, long from, long to, String value, String p) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long id = from; id < to; id++) {
      write.write(p == null ? row(id, value + id) : row(id, value + id, p));
    }
    table.newCommit("u").commit(write.prepareCommit(), Long.MAX_VALUE);
  }

  private static TableScan.Plan plan(FileStoreTable table, Predicate filter) {
    return table.newScan().withFilter(filter).plan();
  }

  @Test
  void partitionFilterSkipsManifestsOfOtherPartitions() {
    FileStoreTable table = TestTables.create(dir, false, List.of("p"), Map.of("bucket", "-1"));
    for (int p = 0; p < 3; p++) {
      commit(table, p * 100, p * 100 + 10, "v", "p" + p);
    }
    TableScan.Plan plan = plan(table, stringEq("p", "p1"));
    assertThat(plan.metrics().manifestsRead()).isEqualTo(1);
    assertThat(plan.metrics().manifestsSkipped()).isEqualTo(2);
    assertThat(plan.splits()).hasSize(1);
    assertThat(readAll(table, table.newScan().withFilter(stringEq("p", "p1"))).keySet())
        .allMatch(id -> id >= 100 && id < 110)
        .hasSize(10);
    // a filter on a non-partition column does not prune manifests
    assertThat(plan(table, stringEq("v", "v1")).metrics().manifestsSkipped()).isZero();
  }

  @Test
  void keyRangeSkipsFilesOfPrimaryKeyTable() {
    FileStoreTable table = TestTables.create(dir, true, List.of(), Map.of("bucket", "1"));
    for (int f = 0; f < 4; f++) {
      commit(table, f * 100, f * 100 + 100, "v", null);
    }
    TableScan.Plan plan = plan(table, idEq(150));
    assertThat(plan.metrics().filesPlanned()).isEqualTo(1);
    assertThat(plan.metrics().filesSkipped()).isEqualTo(3);
    assertThat(plan.splits()).hasSize(1);
    assertThat(plan.splits().get(0).files().get(0).rowCount()).isEqualTo(100);
    assertThat(readAll(table, table.newScan().withFilter(idEq(150)))).containsEntry(150L, "v150");

    TableScan.Plan none = plan(table, idEq(10_000));
    assertThat(none.splits()).isEmpty();
    assertThat(none.metrics().filesSkipped()).isEqualTo(4);
  }

  @Test
  void keyFilterDoesNotResurrectOldVersions() {
    FileStoreTable table = TestTables.create(dir, true, List.of(), Map.of("bucket", "1"));
    commit(table, 0, 100, "old", null);
    commit(table, 50, 60, "new", null);
    TreeMap<Long, String> rows = readAll(table, table.newScan().withFilter(idEq(55)));
    assertThat(rows).containsEntry(55L, "new55");
  }

  @Test
  void valueFilterSkipsOnlyWholeBucketsOfPrimaryKeyTable() {
    FileStoreTable table = TestTables.create(dir, true, List.of(), Map.of("bucket", "1"));
    commit(table, 0, 100, "a", null); // v in [a0, a99]
    commit(table, 0, 10, "b", null); // v in [b0, b9]: newer versions of keys 0..9

    // v = 'a5' matches only the old file, but skipping the new file would resurrect a5
    TableScan.Plan plan = plan(table, stringEq("v", "a5"));
    assertThat(plan.metrics().filesPlanned()).isEqualTo(2);
    assertThat(plan.metrics().filesSkipped()).isZero();
    assertThat(plan.metrics().bucketsSkipped()).isZero();
    assertThat(readAll(table, table.newScan().withFilter(stringEq("v", "a5"))))
        .doesNotContainEntry(5L, "a5")
        .containsEntry(5L, "b5");

    TableScan.Plan skipped = plan(table, stringEq("v", "zzz"));
    assertThat(skipped.splits()).isEmpty();
    assertThat(skipped.metrics().bucketsSkipped()).isEqualTo(1);
    assertThat(skipped.metrics().filesSkipped()).isEqualTo(2);
    assertThat(skipped.metrics().filesPlanned()).isZero();
  }

  @Test
  void valueFilterSkipsSingleFilesOfAppendTable() {
    FileStoreTable table = TestTables.create(dir, false, List.of(), Map.of("bucket", "-1"));
    commit(table, 0, 10, "a", null);
    commit(table, 10, 20, "b", null);
    commit(table, 20, 30, "c", null);
    TableScan.Plan plan = plan(table, stringEq("v", "b15"));
    assertThat(plan.metrics().filesPlanned()).isEqualTo(1);
    assertThat(plan.metrics().filesSkipped()).isEqualTo(2);
    List<DataSplit> splits = plan.splits();
    assertThat(splits).hasSize(1);
    assertThat(readAll(table, table.newScan().withFilter(stringEq("v", "b15"))))
        .hasSize(10)
        .containsEntry(15L, "b15");
  }

  @Test
  void bucketAndSnapshotSelection() {
    FileStoreTable table = TestTables.create(dir, true, List.of(), Map.of("bucket", "4"));
    commit(table, 0, 200, "v", null);
    commit(table, 200, 400, "w", null);
    TableScan.Plan plan = table.newScan().withBucket(2).plan();
    assertThat(plan.splits()).isNotEmpty().allMatch(s -> s.bucket() == 2);
    long total = 0;
    for (int b = 0; b < 4; b++) {
      total += readAll(table, table.newScan().withBucket(b)).size();
    }
    assertThat(total).isEqualTo(400);
    assertThat(readAll(table, table.newScan().withSnapshot(1))).hasSize(200);
  }
}

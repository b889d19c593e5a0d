package io.basalt.operation.scan;

import static io.basalt.testing.TestTables.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.manifest.ManifestCache;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.operation.history.Rollback;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning through the manifest cache decodes each manifest once and plans what a cold read does.
 */
class ManifestCachePlanningTest {
  @TempDir Path dir;
  private FileStoreTable table;
  private final ManifestCache cache = new ManifestCache(16L << 20);

  @BeforeEach
  void fiveCommits() {
    table = TestTables.create(dir, true, List.of(), Map.of("bucket", "2"));
    for (long round = 0; round < 5; round++) {
      TreeMap<Long, String> values = new TreeMap<>();
      for (long id = 0; id < 20; id++) {
        values.put(id * 5 + round, "v" + round + "-" + id);
      }
      values.put(round, "updated" + round);
      TestTables.upsert(table, values);
    }
  }

  private int manifestCount(Snapshot snapshot) {
    ManifestFiles files = table.manifestFiles();
    List<ManifestFileMeta> metas =
        new ArrayList<>(files.readManifestList(snapshot.baseManifestList()));
    metas.addAll(files.readManifestList(snapshot.deltaManifestList()));
    return metas.size();
  }

  private TableScan cached() {
    return table.newScan().withManifestCache(cache);
  }

  @Test
  void aRepeatedPlanDecodesNoManifestAndPlansTheSame() {
    Snapshot latest = table.latestSnapshot().orElseThrow();
    TableScan.Plan cold = cached().plan();
    assertThat(cold.metrics().manifestsRead()).isEqualTo(manifestCount(latest));
    assertThat(cold.metrics().manifestsFromCache()).isZero();

    TableScan.Plan warm = cached().plan();
    assertThat(warm.metrics().manifestsRead()).isZero();
    assertThat(warm.metrics().manifestsFromCache()).isEqualTo(manifestCount(latest));
    assertThat(warm.splits()).isEqualTo(cold.splits());
    assertThat(warm.splits()).isEqualTo(table.newScan().plan().splits());
  }

  @Test
  void aRepeatedPlanReadsNoManifestList() throws Exception {
    Snapshot latest = table.latestSnapshot().orElseThrow();
    TableScan.Plan cold = cached().plan();
    assertThat(cache.manifestListMisses()).isEqualTo(2);
    // gone from storage: a plan that read either list would fail
    for (String list : List.of(latest.baseManifestList(), latest.deltaManifestList())) {
      assertThat(table.fileIO().delete(table.paths().manifestFile(list), false)).isTrue();
    }
    TableScan.Plan warm = cached().plan();
    assertThat(cache.manifestListMisses()).isEqualTo(2);
    assertThat(cache.manifestListHits()).isEqualTo(2);
    assertThat(warm.splits()).isEqualTo(cold.splits());
    assertThatThrownBy(() -> table.newScan().plan())
        .hasMessageContaining("Manifest list")
        .hasMessageContaining("does not exist");
  }

  @Test
  void aNewerSnapshotDecodesOnlyTheManifestsItAdded() {
    cached().plan();
    TestTables.upsert(table, Map.of(1000L, "new"));
    Snapshot latest = table.latestSnapshot().orElseThrow();
    TableScan.Plan plan = cached().plan();
    // the new snapshot's base list is the old base plus the old delta: only its delta is new
    assertThat(plan.metrics().manifestsRead()).isEqualTo(1);
    assertThat(plan.metrics().manifestsFromCache()).isEqualTo(manifestCount(latest) - 1);
    assertThat(readAll(table, cached())).isEqualTo(readAll(table)).containsKey(1000L);
  }

  @Test
  void aRollbackAndNewCommitsPlanWhatAColdReadPlans() {
    cached().plan();
    TreeMap<Long, String> atTwo = readAll(table, table.newScan().withSnapshot(2));
    new Rollback(table).toSnapshot(2);
    assertThat(readAll(table, cached())).isEqualTo(atTwo);
    TestTables.upsert(table, Map.of(0L, "after rollback", 7777L, "x"));
    TreeMap<Long, String> rows = readAll(table, cached());
    assertThat(rows).isEqualTo(readAll(table)).containsEntry(0L, "after rollback");
    assertThat(rows).doesNotContainKey(4L); // written by the rolled-back snapshot 5 only
  }

  @Test
  void expiredSnapshotsDoNotChangeWhatTheLatestPlans() {
    long latest = TestTables.latestId(table);
    for (long id = 1; id <= latest; id++) {
      readAll(table, cached().withSnapshot(id));
    }
    new ExpireSnapshots(table).expire(1, 1, Long.MAX_VALUE, Integer.MAX_VALUE);
    assertThat(table.snapshotManager().earliestSnapshotId().orElseThrow()).isEqualTo(latest);
    TestTables.upsert(table, Map.of(3L, "after expire"));
    assertThat(readAll(table, cached()))
        .isEqualTo(readAll(table))
        .containsEntry(3L, "after expire");
    // an expired snapshot is gone even though its manifests may still be cached
    assertThatThrownBy(() -> cached().withSnapshot(2).plan())
        .hasMessageContaining("snapshot")
        .hasMessageContaining("2");
  }

  @Test
  void theDriverCacheFollowsTheTableOptions() {
    FileStoreTable off = table.copyWithOptions(Map.of("cache-enabled", "false"));
    off.newScan().withDriverManifestCache().plan();
    TableScan.Plan again = off.newScan().withDriverManifestCache().plan();
    assertThat(again.metrics().manifestsFromCache()).isZero();
    assertThat(again.metrics().manifestsRead()).isPositive();

    FileStoreTable on = table.copyWithOptions(Map.of("cache.manifest.max-memory", "8 mb"));
    try {
      on.newScan().withDriverManifestCache().plan();
      TableScan.Plan warm = on.newScan().withDriverManifestCache().plan();
      assertThat(warm.metrics().manifestsRead()).isZero();
      assertThat(ManifestCache.shared().maxBytes()).isEqualTo(8L << 20);
    } finally {
      ManifestCache.shared().resize(ManifestCache.DEFAULT_MAX_BYTES);
    }
  }

  @Test
  void anInvalidParallelismNamesTheOptionAndValue() {
    FileStoreTable bad = table.copyWithOptions(Map.of("scan.manifest.parallelism", "0"));
    assertThatThrownBy(() -> bad.newScan().plan())
        .hasMessageContaining("scan.manifest.parallelism")
        .hasMessageContaining("0");
  }

  @Test
  void serialAndParallelPlansAreEqual() {
    FileStoreTable serial = table.copyWithOptions(Map.of("scan.manifest.parallelism", "1"));
    FileStoreTable parallel = table.copyWithOptions(Map.of("scan.manifest.parallelism", "8"));
    assertThat(parallel.newScan().plan().splits()).isEqualTo(serial.newScan().plan().splits());
    assertThat(readAll(parallel)).isEqualTo(readAll(serial));
  }
}

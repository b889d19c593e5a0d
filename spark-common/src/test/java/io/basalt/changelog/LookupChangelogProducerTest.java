package io.basalt.changelog;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRanges;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lookup changelog through the engine: each commit's promotion of level 0 writes, per key, the
 * change from the key's previous merged row to its new one, recorded by the COMPACT snapshot.
 */
class LookupChangelogProducerTest {
  @TempDir Path dir;

  private FileStoreTable table(String name, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("bucket", "1");
    options.put("changelog-producer", "lookup");
    return TestTables.create(dir.resolve(name), true, List.of(), options);
  }

  private static void commit(FileStoreTable table, Object[]... rows) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (Object[] r : rows) {
      write.write(row((Long) r[0], (String) r[1]), (RowKind) r[2]);
    }
    List<CommitMessage> messages = write.prepareCommit();
    table.newCommit("test").commit(messages, Long.MAX_VALUE);
  }

  private static Object[] r(long id, String v, RowKind kind) {
    return new Object[] {id, v, kind};
  }

  /** The changes of {@code range} in read order, as {@code kind,id,v}. */
  private static List<String> changelog(FileStoreTable table, String range) {
    FileStoreTable reading =
        table.copyWithOptions(
            Map.of("incremental-between", range, "incremental-between-scan-mode", "changelog"));
    IncrementalRange resolved = IncrementalRanges.resolve(reading, ZoneOffset.UTC).orElseThrow();
    IncrementalRead read = new IncrementalRead(reading, TestTables.ID_V);
    List<String> rows = new ArrayList<>();
    for (IncrementalSplit split : new IncrementalScan(reading).plan(resolved)) {
      try (ChangeIterator it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          rows.add(
              it.kind().shortString()
                  + ","
                  + row.getLong(0)
                  + ","
                  + (row.isNullAt(1) ? null : row.getUTF8String(1)));
        }
      }
    }
    return rows;
  }

  @ParameterizedTest(name = "deletion-vectors.enabled = {0}")
  @ValueSource(booleans = {false, true})
  void exactChangesPerKeyLandInTheCompactSnapshot(boolean vectors) {
    FileStoreTable table =
        table("dedup" + vectors, Map.of("deletion-vectors.enabled", "" + vectors));
    commit(table, r(1, "a", RowKind.INSERT), r(2, "b", RowKind.INSERT));
    commit(
        table,
        r(1, "a2", RowKind.INSERT),
        r(2, null, RowKind.DELETE),
        r(3, null, RowKind.DELETE),
        r(4, "d", RowKind.INSERT),
        r(4, "d2", RowKind.INSERT));
    List<Snapshot> snapshots = new ArrayList<>();
    for (long id = 1; id <= 4; id++) {
      snapshots.add(table.snapshotManager().snapshot(id));
    }
    assertThat(snapshots)
        .extracting(Snapshot::commitKind)
        .containsExactly(
            CommitKind.APPEND, CommitKind.COMPACT, CommitKind.APPEND, CommitKind.COMPACT);
    assertThat(snapshots.get(2).changelogManifestList()).isNull();
    assertThat(snapshots.get(3).changelogManifestList()).isNotNull();
    assertThat(snapshots.get(3).changelogRecordCount()).isEqualTo(4);

    assertThat(changelog(table, "0,2")).containsExactly("+I,1,a", "+I,2,b");
    assertThat(changelog(table, "2,4")).containsExactly("-U,1,a", "+U,1,a2", "-D,2,b", "+I,4,d2");
    assertThat(TestTables.readAll(table)).containsExactly(Map.entry(1L, "a2"), Map.entry(4L, "d2"));
  }

  /**
   * Without deletion vectors the older versions stay: each promotion writes its run above them (a
   * lower level), the order Paimon's reads of lookup tables rely on.
   */
  @Test
  void newerRunsGoAboveOlderOnesWithoutDeletionVectors() {
    FileStoreTable table = table("levels", Map.of("num-levels", "4"));
    commit(table, r(1, "a", RowKind.INSERT), r(2, "b", RowKind.INSERT));
    commit(table, r(1, "a2", RowKind.INSERT));
    commit(table, r(2, "b2", RowKind.INSERT));
    List<io.basalt.manifest.DataFileMeta> files = new ArrayList<>();
    for (io.basalt.table.DataSplit split : table.newScan().plan().splits()) {
      files.addAll(split.files());
    }
    files.sort(java.util.Comparator.comparingLong(f -> -f.maxSequenceNumber()));
    assertThat(files).extracting(io.basalt.manifest.DataFileMeta::level).containsExactly(1, 2, 3);
    // the fourth write finds level 1 taken: everything is compacted with it, newest wins
    commit(table, r(1, "a3", RowKind.INSERT));
    assertThat(TestTables.readAll(table)).containsExactly(Map.entry(1L, "a3"), Map.entry(2L, "b2"));
    assertThat(changelog(table, "6,8")).containsExactly("-U,1,a2", "+U,1,a3");
  }

  @Test
  void rowDeduplicateDropsRewritesOfTheSameValue() {
    FileStoreTable table = table("same", Map.of("changelog-producer.row-deduplicate", "true"));
    commit(table, r(1, "a", RowKind.INSERT), r(2, "b", RowKind.INSERT));
    commit(table, r(1, "a", RowKind.INSERT), r(2, "b2", RowKind.INSERT));
    assertThat(changelog(table, "2,4")).containsExactly("-U,2,b", "+U,2,b2");
  }

  /**
   * Random upserts and deletes without deletion vectors (so older versions stay live in several
   * runs and compactions merge them) against a model of each key's merged history.
   */
  @Test
  void randomizedHistoryMatchesTheModel() {
    FileStoreTable table =
        table("random", Map.of("num-sorted-run.compaction-trigger", "3", "num-levels", "4"));
    Random random = new Random(7);
    TreeMap<Long, String> model = new TreeMap<>();
    List<String> expected = new ArrayList<>();
    for (int step = 0; step < 12; step++) {
      TreeMap<Long, Object[]> batch = new TreeMap<>();
      for (int i = 0; i < 6; i++) {
        long id = random.nextInt(10);
        boolean delete = random.nextInt(4) == 0;
        batch.put(
            id,
            r(id, delete ? null : "s" + step + "_" + i, delete ? RowKind.DELETE : RowKind.INSERT));
      }
      for (Object[] change : batch.values()) {
        long id = (Long) change[0];
        String old = model.get(id);
        String now = (String) change[1];
        if (now == null) {
          if (old != null) {
            expected.add("-D," + id + "," + old);
          }
          model.remove(id);
        } else if (old == null) {
          expected.add("+I," + id + "," + now);
          model.put(id, now);
        } else {
          expected.add("-U," + id + "," + old);
          expected.add("+U," + id + "," + now);
          model.put(id, now);
        }
      }
      commit(table, batch.values().toArray(new Object[0][]));
    }
    long last = table.snapshotManager().latestSnapshotId().getAsLong();
    assertThat(changelog(table, "0," + last)).isEqualTo(expected);
    assertThat(TestTables.readAll(table)).isEqualTo(model);
  }
}

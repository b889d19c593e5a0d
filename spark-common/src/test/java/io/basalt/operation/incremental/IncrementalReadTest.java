package io.basalt.operation.incremental;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental reads against a model of per-key history: random upserts and deletes over many
 * commits (small write buffers and automatic compactions, so buckets hold several runs and some
 * snapshots are COMPACT), then every {@code delta} and {@code diff} range checked against what the
 * model says changed. Fixed seeds, so failures replay.
 */
class IncrementalReadTest {
  @TempDir Path dir;

  /** One change of a key: its value, or null for a delete. */
  private record Op(long key, String value) {}

  @Test
  void deltaAndDiffMatchTheModelForFixedSeeds() {
    for (long seed : new long[] {1L, 7L, 42L, 2026L}) {
      run(seed, false);
    }
  }

  /**
   * Deletion vectors: snapshot reads (so diffs) see only compacted files, with rows masked; the
   * diff of two snapshots must be the difference of their snapshot reads.
   */
  @Test
  void withDeletionVectors() {
    for (long seed : new long[] {3L, 11L}) {
      run(seed, true);
    }
  }

  private void run(long seed, boolean deletionVectors) {
    Random random = new Random(seed);
    FileStoreTable table =
        TestTables.create(
            dir.resolve("t" + seed + deletionVectors),
            true,
            List.of(),
            Map.of(
                "bucket", String.valueOf(1 + random.nextInt(3)),
                "write-buffer-size", (4 + random.nextInt(30)) + "kb",
                "num-sorted-run.compaction-trigger", String.valueOf(2 + random.nextInt(3)),
                "deletion-vectors.enabled", String.valueOf(deletionVectors)));
    // the table's state and the ops applied, by snapshot id (compactions repeat the state)
    Map<Long, TreeMap<Long, String>> states = new HashMap<>();
    Map<Long, List<Op>> ops = new HashMap<>();
    states.put(0L, new TreeMap<>());
    TreeMap<Long, String> state = new TreeMap<>();
    int keySpace = 30 + random.nextInt(300);
    long previous = 0;
    for (int c = 0; c < 8; c++) {
      TableWrite write = table.newWrite(TestTables.latestId(table), false);
      List<Op> applied = new ArrayList<>();
      int count = 1 + random.nextInt(400);
      for (int i = 0; i < count; i++) {
        long key = random.nextInt(keySpace);
        if (random.nextInt(4) == 0) {
          write.write(row(key, null), RowKind.DELETE);
          state.remove(key);
          applied.add(new Op(key, null));
        } else {
          String value = "c" + c + "-" + i;
          write.write(row(key, value));
          state.put(key, value);
          applied.add(new Op(key, value));
        }
      }
      List<CommitMessage> messages = write.prepareCommit();
      table.newCommit("model").commit(messages, c);
      long latest = TestTables.latestId(table);
      for (long id = previous + 1; id <= latest; id++) {
        // with deletion vectors a snapshot shows only compacted rows: a diff compares what
        // snapshot reads of its two ends return
        states.put(
            id,
            deletionVectors
                ? TestTables.readAll(table, table.newScan().withSnapshot(id))
                : new TreeMap<>(state));
        // the APPEND snapshot comes first; a compaction of the same commit follows it
        ops.put(id, id == previous + 1 ? applied : List.of());
      }
      previous = latest;
    }
    for (long start = 0; start < previous; start++) {
      for (long end = Math.max(start, 1); end <= previous; end++) {
        if (end != previous && random.nextInt(3) != 0) {
          continue; // a third of the ranges, and every range up to the latest: keeps it fast
        }
        String range = start + "," + end;
        assertThat(changes(table, range, "delta"))
            .as("seed %s, delta %s", seed, range)
            .isEqualTo(expectedDelta(ops, start, end));
        assertThat(changes(table, range, "diff"))
            .as("seed %s, diff %s", seed, range)
            .isEqualTo(expectedDiff(states.get(start), states.get(end)));
      }
    }
  }

  /** The last op of each key in (start, end]: an upsert as +I, a delete as -D. */
  private static List<String> expectedDelta(Map<Long, List<Op>> ops, long start, long end) {
    Map<Long, String> last = new TreeMap<>();
    Map<Long, Boolean> deleted = new TreeMap<>();
    for (long id = start + 1; id <= end; id++) {
      for (Op op : ops.get(id)) {
        last.put(op.key(), op.value());
        deleted.put(op.key(), op.value() == null);
      }
    }
    List<String> rows = new ArrayList<>();
    for (Map.Entry<Long, String> e : last.entrySet()) {
      rows.add(
          deleted.get(e.getKey())
              ? "-D," + e.getKey() + ",null"
              : "+I," + e.getKey() + "," + e.getValue());
    }
    rows.sort(null);
    return rows;
  }

  private static List<String> expectedDiff(Map<Long, String> before, Map<Long, String> after) {
    List<String> rows = new ArrayList<>();
    TreeSet<Long> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    for (long key : keys) {
      boolean old = before.containsKey(key);
      boolean now = after.containsKey(key);
      if (old && !now) {
        rows.add("-D," + key + "," + before.get(key));
      } else if (!old) {
        rows.add("+I," + key + "," + after.get(key));
      } else if (!Objects.equals(before.get(key), after.get(key))) {
        rows.add("-U," + key + "," + before.get(key));
        rows.add("+U," + key + "," + after.get(key));
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Every change row of the range as "kind,id,v", sorted. */
  static List<String> changes(FileStoreTable table, String range, String mode) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("incremental-between", range);
    options.put("incremental-between-scan-mode", mode);
    return changes(table.copyWithOptions(options));
  }

  static List<String> changes(FileStoreTable table) {
    IncrementalRange range =
        IncrementalRanges.resolve(table, java.time.ZoneId.of("UTC")).orElseThrow();
    List<String> rows = new ArrayList<>();
    IncrementalRead read = new IncrementalRead(table, TestTables.ID_V);
    for (IncrementalSplit split : new IncrementalScan(table).plan(range)) {
      try (ChangeIterator it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow r = it.next();
          rows.add(
              it.kind().shortString()
                  + ","
                  + r.getLong(0)
                  + ","
                  + (r.isNullAt(1) ? null : r.getUTF8String(1).toString()));
        }
      }
    }
    rows.sort(null);
    return rows;
  }
}

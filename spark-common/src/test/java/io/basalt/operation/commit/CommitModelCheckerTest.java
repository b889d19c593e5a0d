package io.basalt.operation.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.BasaltException;
import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.FaultInjectingFileIO.Fault;
import io.basalt.fs.FaultInjectingFileIO.Op;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.operation.history.Rollback;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A deterministic multi-writer model checker on {@link InMemoryFileIO}. Three writers append,
 * overwrite partitions (some with a new bucket count), compact buckets and change deletion vectors,
 * while tags, expiration and rollback run between them. A writer is paused at random I/O steps of
 * its commit and another writer's whole operation runs there (nested up to two deep), and faults
 * are injected at random steps. After every step the table is checked against a model: each new
 * snapshot holds exactly its parent's files plus the commit's changes, no snapshot or tag
 * references a deleted file, ids are contiguous, time and schema id never go backwards, a partition
 * has one bucket count, and every commit that reported success is still there unless expired or
 * rolled back.
 *
 * <p>A failure names its seed: rerun with {@code -Dbasalt.model.seed=<seed>}. The default build
 * runs a fixed seed; {@code -Pstress} (or {@code -Dbasalt.model.runs=N}) runs many more.
 */
class CommitModelCheckerTest {
  private static final int STEPS = 30;

  @Test
  void randomInterleavingsNeverLoseCommittedFiles() {
    String fixed = System.getProperty("basalt.model.seed");
    int runs = Integer.getInteger("basalt.model.runs", 3);
    long first = fixed != null ? Long.parseLong(fixed) : 20261201L;
    Totals totals = new Totals();
    runs = fixed != null ? 1 : runs;
    for (int run = 0; run < runs; run++) {
      long seed = first + run * 7919L;
      try {
        new Run(seed, totals).execute();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "Model check failed; replay with -Dbasalt.model.seed=" + seed + ": " + e, e);
      }
    }
    System.out.printf(
        "CommitModelCheckerTest: %s runs, %s operations (%s nested interleavings), %s snapshots"
            + " checked against the model, %s faults injected, %s conflicts refused, %s unknown"
            + " outcomes, %s expirations failed (retried later); no committed file lost%n",
        runs,
        totals.operations,
        totals.nested,
        totals.snapshotsChecked,
        totals.faults,
        totals.conflicts,
        totals.unknown,
        totals.expirationFailures);
    assertThat(totals.snapshotsChecked).isGreaterThan(runs * 5L);
    assertThat(totals.nested).isGreaterThan(0);
  }

  static final class Totals {
    long operations;
    long nested;
    long snapshotsChecked;
    long faults;
    long conflicts;
    long unknown;
    long expirationFailures;
  }

  /** One seeded run: a fresh table and {@link #STEPS} top-level steps. */
  private static final class Run {
    private final Random random;
    private final Totals totals;
    private final InMemoryFileIO memory = new InMemoryFileIO();
    private final FaultInjectingFileIO io = new FaultInjectingFileIO(memory);
    private final FileStoreTable table;
    private final ModelWriters writers;

    /** Snapshot id -> the commit user that reported it committed. */
    private final Map<Long, String> reported = new HashMap<>();

    private final Map<String, List<org.apache.hadoop.fs.Path>> referenced = new HashMap<>();
    private long verifiedUpTo;
    private int depth;

    Run(long seed, Totals totals) {
      this.random = new Random(seed);
      this.totals = totals;
      this.table =
          SyntheticFiles.pkTable(
              io,
              "mem:/w/db.db/t",
              Map.of(
                  "bucket", "2",
                  "commit.min-retry-wait", "1 ms",
                  "commit.max-retry-wait", "2 ms",
                  "commit.max-retries", "20"));
      this.writers = new ModelWriters(table, memory, io, random);
    }

    void execute() {
      io.setHook(this::maybeInterleave);
      for (int step = 0; step < STEPS; step++) {
        int choice = random.nextInt(20);
        if (choice == 0) {
          rollback();
        } else {
          if (random.nextInt(3) == 0) {
            Op op = Op.values()[random.nextInt(Op.values().length)];
            io.failAt(
                op,
                1 + random.nextInt(25),
                random.nextBoolean() ? Fault.FAIL_BEFORE : Fault.FAIL_AFTER);
          }
          operation();
          io.reset();
        }
        check("step " + step);
      }
      io.setHook(null);
      totals.faults += io.injected();
      totals.expirationFailures += writers.expirationFailures;
    }

    /** Runs another writer's whole operation at this I/O step, now and then. */
    private void maybeInterleave(Op op, org.apache.hadoop.fs.Path path, int index) {
      if (depth < 2 && random.nextInt(25) == 0) {
        totals.nested++;
        operation();
      }
    }

    private void operation() {
      depth++;
      totals.operations++;
      try {
        ModelWriters.Outcome outcome = writers.random(random.nextInt(3));
        if (outcome.landed() != null) {
          for (long id : outcome.landed()) {
            reported.put(id, outcome.user());
          }
        }
        totals.conflicts += outcome.conflict() ? 1 : 0;
        totals.unknown += outcome.unknown() ? 1 : 0;
      } finally {
        depth--;
      }
    }

    private void rollback() {
      List<Long> ids = table.snapshotManager().ids();
      if (ids.size() < 2) {
        return;
      }
      long target = ids.get(random.nextInt(ids.size() - 1));
      // a rollback needs stopped writers (see Rollback): nothing interleaves with it
      io.setHook(null);
      try {
        new Rollback(table).toSnapshot(target);
      } catch (BasaltException e) {
        return; // e.g. nothing to roll back; the checks below still run
      } finally {
        io.setHook(this::maybeInterleave);
      }
      reported.keySet().removeIf(id -> id > target);
      verifiedUpTo = Math.min(verifiedUpTo, target);
    }

    private void check(String where) {
      FaultInjectingFileIO.Hook hook = null;
      io.setHook(hook);
      List<Long> ids = table.snapshotManager().ids();
      for (int i = 1; i < ids.size(); i++) {
        assertThat(ids.get(i)).as(where + ": contiguous ids").isEqualTo(ids.get(i - 1) + 1);
      }
      List<String> problems = TableChecks.problems(table, memory, referenced);
      if (!problems.isEmpty() && Boolean.getBoolean("basalt.model.debug")) {
        for (long id : ids) {
          Snapshot s = table.snapshotManager().snapshot(id);
          System.out.println(
              "DEBUG snapshot "
                  + id
                  + " "
                  + s.commitKind()
                  + " "
                  + s.commitUser()
                  + " delta="
                  + TableChecks.delta(table, s)
                  + " base="
                  + s.baseManifestList());
        }
      }
      assertThat(problems).as(where).isEmpty();
      Snapshot previous = null;
      for (long id : ids) {
        Snapshot snapshot = table.snapshotManager().snapshot(id);
        if (previous != null) {
          assertThat(snapshot.timeMillis())
              .as(where + ": time of snapshot " + id + " " + snapshot.commitUser())
              .isGreaterThanOrEqualTo(previous.timeMillis());
          assertThat(snapshot.schemaId()).as(where).isGreaterThanOrEqualTo(previous.schemaId());
        }
        if (id > verifiedUpTo) {
          checkBucketCounts(where, snapshot);
        }
        if (id > verifiedUpTo && previous != null) {
          writers.checkAgainstModel(where, previous, snapshot);
          totals.snapshotsChecked++;
        }
        previous = snapshot;
      }
      if (!ids.isEmpty()) {
        verifiedUpTo = ids.get(ids.size() - 1);
        long earliest = ids.get(0);
        for (Map.Entry<Long, String> landed : reported.entrySet()) {
          if (landed.getKey() >= earliest) {
            assertThat(table.snapshotManager().snapshot(landed.getKey()).commitUser())
                .as(where + ": snapshot " + landed.getKey() + " reported as committed")
                .isEqualTo(landed.getValue());
          }
        }
      }
      io.setHook(this::maybeInterleave);
    }

    private void checkBucketCounts(String where, Snapshot snapshot) {
      Map<String, TreeSet<Integer>> counts = new HashMap<>();
      for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
        counts
            .computeIfAbsent(
                table.dataFilePaths().partitionPath(entry.partition()), k -> new TreeSet<>())
            .add(entry.totalBuckets());
      }
      for (Map.Entry<String, TreeSet<Integer>> partition : counts.entrySet()) {
        assertThat(partition.getValue())
            .as(
                where
                    + ": bucket counts of "
                    + partition.getKey()
                    + " in snapshot "
                    + snapshot.id())
            .hasSize(1);
      }
    }
  }

  /** Expires like the post-commit action, but keeping only a few snapshots. */
  static void expire(FileStoreTable table, Random random) {
    new ExpireSnapshots(table).expire(2, 2 + random.nextInt(3), Long.MAX_VALUE, 10);
  }

  static List<Long> list(long... ids) {
    List<Long> result = new ArrayList<>();
    for (long id : ids) {
      result.add(id);
    }
    return result;
  }
}

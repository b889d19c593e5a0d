package io.basalt.operation.commit;

import static io.basalt.operation.commit.SyntheticFiles.append;
import static io.basalt.operation.commit.SyntheticFiles.compact;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.FaultInjectingFileIO.Fault;
import io.basalt.fs.FaultInjectingFileIO.Op;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.index.IndexFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Fails every I/O step of a commit, one at a time, before or after it happens: either the commit
 * lands whole or the table is unchanged, no file a snapshot references is deleted, and the table
 * takes the next commit.
 */
class CommitFaultInjectionTest {

  /** One commit under test, on a fresh table that {@link #setUp} built. */
  private record Case(String name, Function<Fixture, List<CommitMessage>> messages, Runner run) {}

  private interface Runner {
    OptionalLong run(Fixture fixture, List<CommitMessage> messages);
  }

  private static final class Fixture {
    final InMemoryFileIO memory = new InMemoryFileIO();
    final FaultInjectingFileIO io = new FaultInjectingFileIO(memory);
    final SyntheticFiles files =
        new SyntheticFiles(
            SyntheticFiles.pkTable(
                io, "mem:/w/db.db/t", Map.of("bucket", "2", "commit.min-retry-wait", "1 ms")));
    final FileStoreTable table = files.table();
    List<ManifestEntry> replaced;
  }

  private static Fixture setUp() {
    Fixture x = new Fixture();
    SyntheticFiles f = x.files;
    commitClean(
        x,
        List.of(
            append(f.partition("a"), 0, 2, f.file("a0", 0, 1, 5)),
            append(f.partition("a"), 1, 2, f.file("a1", 0, 6, 9))));
    commitClean(x, List.of(append(f.partition("b"), 0, 2, f.file("b0", 0, 1, 5))));
    x.replaced =
        x.table.newScan().liveEntries(x.table.latestSnapshot().orElseThrow()).stream()
            .filter(e -> e.file().fileName().equals("a1"))
            .toList();
    return x;
  }

  private static void commitClean(Fixture x, List<CommitMessage> messages) {
    TableChecks.touch(x.memory, x.table, messages);
    x.table.newCommit("setup").commit(messages, x.table.snapshotManager().ids().size() + 1);
  }

  private static final List<Case> CASES =
      List.of(
          new Case(
              "append+compaction+deletion vectors",
              x -> {
                SyntheticFiles f = x.files;
                return List.of(
                    append(f.partition("a"), 0, 2, f.file("n0", 0, 1, 3)),
                    new CommitMessage(
                        f.partition("a"),
                        0,
                        2,
                        List.of(),
                        List.of(f.file("a0", 0, 1, 5)),
                        List.of(f.file("c0", 5, 1, 5)),
                        List.of(IndexFileMeta.deletionVectors("dv-0", 10, Map.of())),
                        List.of()));
              },
              (x, m) -> x.table.newCommit("w").commit(m, 2)),
          new Case(
              "compaction",
              x ->
                  List.of(
                      compact(
                          x.files.partition("b"),
                          0,
                          2,
                          List.of(x.files.file("b0", 0, 1, 5)),
                          List.of(x.files.file("b0c", 5, 1, 5)))),
              (x, m) -> x.table.newCommit("w").commitCompaction(m, 2)),
          new Case(
              "dynamic overwrite",
              x -> List.of(append(x.files.partition("b"), 1, 2, x.files.file("o1", 0, 1, 2))),
              (x, m) -> x.table.newCommit("w").overwrite(null, true, m, 2)),
          new Case(
              "replace files",
              x -> List.of(append(x.files.partition("a"), 1, 2, x.files.file("r1", 0, 6, 9))),
              (x, m) -> x.table.newCommit("w").replaceFiles(x.replaced, m, 2)));

  @Test
  void everyFaultAtEveryStepLeavesTheTableWholeOrUnchanged() {
    int injected = 0;
    int steps = 0;
    for (Case c : CASES) {
      // a clean run tells the end state and how many steps of each kind the commit takes
      Fixture dry = setUp();
      TreeSet<String> before = TableChecks.latest(dry.table);
      List<CommitMessage> dryMessages = c.messages().apply(dry);
      TableChecks.touch(dry.memory, dry.table, dryMessages);
      dry.io.reset();
      c.run().run(dry, dryMessages);
      TreeSet<String> after = TableChecks.latest(dry.table);
      assertThat(after).as(c.name()).isNotEqualTo(before);
      for (Op op : Op.values()) {
        int count = dry.io.count(op);
        steps += count;
        for (int n = 1; n <= count; n++) {
          // a read that happened and then failed looks to the caller like one that did not
          for (Fault fault : op == Op.READ ? List.of(Fault.FAIL_BEFORE) : List.of(Fault.values())) {
            injected += runWithFault(c, op, n, fault, before, after);
          }
        }
      }
    }
    System.out.printf(
        "CommitFaultInjectionTest: %s commit steps, %s faults injected, nothing lost%n",
        steps, injected);
    assertThat(steps).isGreaterThan(40);
    assertThat(injected).isGreaterThan(80);
  }

  private int runWithFault(
      Case c, Op op, int n, Fault fault, Set<String> before, Set<String> after) {
    String what = c.name() + ": " + fault + " at " + op + " #" + n;
    Fixture x = setUp();
    long base = x.table.latestSnapshot().orElseThrow().id();
    List<CommitMessage> messages = c.messages().apply(x);
    TableChecks.touch(x.memory, x.table, messages);
    x.io.failAt(op, n, fault);
    RuntimeException thrown = null;
    try {
      c.run().run(x, messages);
    } catch (RuntimeException e) {
      thrown = e;
    }
    int injected = x.io.injected();
    x.io.reset();
    TreeSet<String> state = TableChecks.latest(x.table);
    if (thrown == null) {
      // landed: whole, or (append with compaction) the append whole and the compaction not
      assertThat(state.equals(after) || appendOnly(x, state, before)).as(what).isTrue();
    } else if (thrown instanceof CommitStateUnknownException) {
      assertThat(state.equals(after) || state.equals(before)).as(what).isTrue();
    } else {
      assertThat(state).as(what + " threw " + thrown).isEqualTo(before);
      x.table.newCommit("w").abort(messages, base); // what Spark does next
    }
    assertThat(TableChecks.problems(x.table, x.memory)).as(what).isEmpty();
    // the table takes the next commit
    List<CommitMessage> next =
        List.of(append(x.files.partition("a"), 0, 2, x.files.file("next", 0, 1, 1)));
    TableChecks.touch(x.memory, x.table, next);
    assertThat(x.table.newCommit("after").commit(next, 3)).as(what).isPresent();
    assertThat(TableChecks.problems(x.table, x.memory)).as(what).isEmpty();
    return injected;
  }

  /** The state after only the APPEND part of a commit: before plus the level-0 new file. */
  private static boolean appendOnly(Fixture x, Set<String> state, Set<String> before) {
    List<String> added = new ArrayList<>(state);
    added.removeAll(before);
    return state.containsAll(before) && added.equals(List.of("p=a/0/n0@0"));
  }
}

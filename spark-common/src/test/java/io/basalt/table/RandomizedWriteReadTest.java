package io.basalt.table;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.operation.write.TableWrite;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Model-based test of the primary-key write and read path: random upserts and deletes over several
 * commits, with a tiny write buffer so buckets hold many sorted runs, checked after every commit
 * against a {@link TreeMap} oracle. Set {@code -Dbasalt.test.seed=N} to replay a failure.
 */
class RandomizedWriteReadTest {
  @TempDir Path dir;

  @RepeatedTest(4)
  void randomUpsertsAndDeletesMatchOracle() {
    long seed = Long.getLong("basalt.test.seed", new Random().nextLong());
    try {
      run(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionFailedError(
          "RandomizedWriteReadTest failed with seed " + seed + " (-Dbasalt.test.seed=" + seed + ")",
          e);
    }
  }

  private void run(long seed) {
    Random random = new Random(seed);
    int buckets = 1 + random.nextInt(3);
    FileStoreTable table =
        TestTables.create(
            dir.resolve("t" + seed),
            true,
            List.of(),
            Map.of(
                "bucket",
                String.valueOf(buckets),
                "write-buffer-size",
                (4 + random.nextInt(60)) + "kb",
                "manifest.merge-min-count",
                String.valueOf(2 + random.nextInt(6))));
    TreeMap<Long, String> oracle = new TreeMap<>();
    int keySpace = 50 + random.nextInt(2000);
    int commits = 3 + random.nextInt(6);
    for (int c = 0; c < commits; c++) {
      TableWrite write = table.newWrite(TestTables.latestId(table), false);
      int ops = random.nextInt(2000);
      for (int i = 0; i < ops; i++) {
        long key = random.nextInt(keySpace);
        if (random.nextInt(5) == 0) {
          write.write(row(key, null), RowKind.DELETE);
          oracle.remove(key);
        } else {
          String value = random.nextInt(20) == 0 ? null : "c" + c + "-i" + i;
          write.write(row(key, value));
          oracle.put(key, value);
        }
      }
      List<CommitMessage> messages = write.prepareCommit();
      table.newCommit("random").commit(messages, c);
      assertThat(readAll(table)).as("after commit %s", c).isEqualTo(oracle);
    }
  }
}

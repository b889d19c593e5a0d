package io.basalt.fs.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class LockingFileIOTest {
  private static final Path ROOT = new Path("gs://bucket/wh/db.db/t");
  private static final Path SNAPSHOT = new Path(ROOT, "snapshot/snapshot-1");
  private static final int WRITERS = 6;

  private final ObjectStoreFileIO store = new ObjectStoreFileIO("/locks");

  private FileIO table(Map<String, String> options) {
    return LockingFileIO.wrap(store, options, ROOT, "db.t");
  }

  @Test
  void refusesToCommitOnAStoreWithoutAtomicCreateNamingBothFixes() {
    assertThatThrownBy(() -> table(Map.of()).tryCreateAtomically(SNAPSHOT, "x"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Cannot commit to table db.t")
        .hasMessageContaining("store gs://bucket has no atomic create-if-absent")
        .hasMessageContaining("'lock.enabled'='true' with 'lock.file.dir'")
        .hasMessageContaining("'commit.single-writer'='true'");
    assertThat(store.exists(SNAPSHOT)).isFalse();
  }

  @Test
  void singleWriterModeCreatesOnlyWhenAbsent() throws Exception {
    FileIO io = table(Map.of("commit.single-writer", "true"));
    assertThat(io.tryCreateAtomically(SNAPSHOT, "first")).isTrue();
    assertThat(io.tryCreateAtomically(SNAPSHOT, "second")).isFalse();
    assertThat(io.readUtf8(SNAPSHOT)).isEqualTo("first");
  }

  @Test
  void withoutALockRacingWritersBothWinAndOneIsLost() throws Exception {
    // the negative control of the lock test below: the race the lock exists for is real here
    store.holdCreatorsUntil(WRITERS);
    List<String> winners = race(table(Map.of("commit.single-writer", "true")));
    assertThat(winners).hasSize(WRITERS);
    assertThat(store.maxConcurrentCreators()).isEqualTo(WRITERS);
  }

  @Test
  void theLockLetsExactlyOneOfRacingWritersCreate() throws Exception {
    FileIO io = table(lockOptions());
    List<String> winners = race(io);
    assertThat(winners).hasSize(1);
    assertThat(store.maxConcurrentCreators()).isEqualTo(1);
    assertThat(io.readUtf8(SNAPSHOT)).isEqualTo(winners.get(0));
    // the lock file is gone once released
    assertThat(store.list(new Path("/locks"))).isEmpty();
  }

  @Test
  void aLockWithoutADirectoryIsRefused() {
    Map<String, String> options = new HashMap<>(lockOptions());
    options.remove("lock.file.dir");
    assertThatThrownBy(() -> table(options).tryCreateAtomically(SNAPSHOT, "x"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Table db.t sets 'lock.enabled'='true' with 'lock.type'='file' but no"
                + " 'lock.file.dir'");
  }

  @Test
  void aLockDirectoryOnAStoreWithoutAtomicCreateIsRefused() {
    Map<String, String> options = new HashMap<>(lockOptions());
    options.put("lock.file.dir", "gs://bucket/locks");
    assertThatThrownBy(() -> table(options).tryCreateAtomically(SNAPSHOT, "x"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "The commit lock of table db.t cannot work in 'lock.file.dir'='gs://bucket/locks'");
  }

  @Test
  void anUnknownLockTypeNamesTheKnownOnes() {
    Map<String, String> options = new HashMap<>(lockOptions());
    options.put("lock.type", "zookeeper");
    assertThatThrownBy(() -> table(options).tryCreateAtomically(SNAPSHOT, "x"))
        .hasMessageContaining("lock.type")
        .hasMessageContaining("zookeeper")
        .hasMessageContaining("expected one of file");
  }

  @Test
  void storesWithAnAtomicCreateNeedNoLock() throws Exception {
    Path atomic = new Path("/locks/elsewhere/snapshot-1");
    FileIO io = table(Map.of());
    assertThat(io.tryCreateAtomically(atomic, "a")).isTrue();
    assertThat(io.tryCreateAtomically(atomic, "b")).isFalse();
  }

  private static Map<String, String> lockOptions() {
    return Map.of("lock.enabled", "true", "lock.file.dir", "/locks", "lock-check-max-sleep", "5");
  }

  /** Runs {@link #WRITERS} creators of {@link #SNAPSHOT} at once; returns the winners' content. */
  private static List<String> race(FileIO io) throws Exception {
    CyclicBarrier start = new CyclicBarrier(WRITERS);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String content = "writer-" + w;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return io.tryCreateAtomically(SNAPSHOT, content);
                }));
      }
      List<String> winners = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        if (results.get(w).get()) {
          winners.add("writer-" + w);
        }
      }
      return winners;
    } finally {
      pool.shutdownNow();
    }
  }
}

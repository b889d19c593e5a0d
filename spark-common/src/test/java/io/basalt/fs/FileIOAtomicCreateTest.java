package io.basalt.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

class FileIOAtomicCreateTest {
  @TempDir java.nio.file.Path dir;

  @RepeatedTest(5)
  void exactlyOneOfManyRacingCreatorsWins() throws Exception {
    FileIO io = FileIO.local();
    int threads = 16;
    Path target = new Path(dir.toUri().toString(), "snapshot-1");
    CyclicBarrier barrier = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      // big enough that a torn write would show
      String content = ("writer-" + t + "\n").repeat(20_000);
      results.add(
          pool.submit(
              () -> {
                barrier.await();
                return io.tryCreateAtomically(target, content);
              }));
    }
    List<Integer> winners = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      if (results.get(t).get()) {
        winners.add(t);
      }
    }
    pool.shutdown();
    assertThat(winners).hasSize(1);
    String expected = ("writer-" + winners.get(0) + "\n").repeat(20_000);
    assertThat(io.readUtf8(target)).isEqualTo(expected);
    // no temporary files are left behind
    File[] left = dir.toFile().listFiles();
    assertThat(left).extracting(File::getName).containsExactly("snapshot-1");
    assertThat(io.tryCreateAtomically(target, "late")).isFalse();
    assertThat(Files.readString(dir.resolve("snapshot-1"))).isEqualTo(expected);
  }
}

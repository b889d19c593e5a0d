package io.basalt.spark.it.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes more than 1 GB of row data in five overlapping upsert rounds into a 4-bucket primary-key
 * table in a JVM with a 768 MB heap, then reads the merged result back: writes must spill by {@code
 * write-buffer-size} and the merge read must stream.
 */
class BoundedMemoryIT {
  static final int ROUNDS = 5;
  static final long ROWS_PER_ROUND =
      Long.getLong("basalt.bounded.rows", 2_200_000L); // 5 x 2.2M x 100 B = 1.1 GB

  @TempDir Path dir;

  /** Runs {@link BoundedMemoryMain} under a 768 MB heap and returns its RESULT line's values. */
  private Map<String, String> run(int rounds, long rows, String mode) throws Exception {
    long start = System.nanoTime();
    ForkedJvm jvm =
        ForkedJvm.start(
            dir.resolve(mode + ".log"),
            List.of("-Xmx768m", "-XX:+ExitOnOutOfMemoryError"),
            BoundedMemoryMain.class,
            dir.resolve(mode).toUri().toString(),
            String.valueOf(rounds),
            String.valueOf(rows),
            mode);
    int exit = jvm.waitFor(600);
    String output = jvm.output();
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.println("BoundedMemoryIT (" + millis + " ms):\n" + output);
    assertThat(exit).as("forked JVM output:\n%s", output).isZero();

    String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow();
    Map<String, String> result = new HashMap<>();
    for (String part : line.substring("RESULT ".length()).split(" ")) {
      int eq = part.indexOf('=');
      result.put(part.substring(0, eq), part.substring(eq + 1));
    }
    return result;
  }

  @Test
  void upsertsOfMoreThanTheHeapMergeCorrectly() throws Exception {
    Map<String, String> result = run(ROUNDS, ROWS_PER_ROUND, "flush");
    long distinct = (ROUNDS - 1) * (ROWS_PER_ROUND / 2) + ROWS_PER_ROUND;
    assertThat(result.get("ok")).isEqualTo("true");
    assertThat(Long.parseLong(result.get("rows"))).isEqualTo(distinct);
    assertThat(result.get("checksum")).isEqualTo(result.get("expectedChecksum"));
    assertThat(Long.parseLong(result.get("rowBytes"))).isGreaterThan(1L << 30);
    // 16 MB of buffer for > 1 GB of rows: the writers must have spilled many times
    assertThat(Long.parseLong(result.get("flushes"))).isGreaterThan(50);
    assertThat(Long.parseLong(result.get("files"))).isGreaterThan(50);
  }

  /**
   * One commit of more than 1 GB with a 64 MB buffer: the buffer spills to local disk and the
   * spills merge into one file per bucket at commit.
   */
  @Test
  void aSingleCommitLargerThanTheHeapSpillsToLocalDisk() throws Exception {
    long rows = Long.getLong("basalt.spill.rows", 11_000_000L); // 11M x 100 B = 1.1 GB
    Map<String, String> result = run(1, rows, "spill");
    assertThat(result.get("ok")).isEqualTo("true");
    assertThat(Long.parseLong(result.get("rows"))).isEqualTo(rows);
    assertThat(Long.parseLong(result.get("rowBytes"))).isGreaterThan(1L << 30);
    assertThat(Long.parseLong(result.get("spilledBytes"))).isGreaterThan(512L << 20);
    // spills merge at commit: each bucket gets one sorted run, not a file per full buffer
    assertThat(Long.parseLong(result.get("files"))).isLessThanOrEqualTo(4 * 5);
  }
}

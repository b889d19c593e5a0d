package io.basalt.spark.it.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BLOB values of 8 MB (far larger than a Parquet page) round-trip through {@code .blob} files in a
 * JVM whose 256 MB heap is smaller than the values together: neither the write nor the read may
 * hold a blob file in memory.
 */
class BlobLargeValuesIT {
  @TempDir Path dir;

  @Test
  void valuesLargerThanAPageRoundTripUnderASmallHeap() throws Exception {
    int rows = 48;
    int mb = 8;
    ForkedJvm jvm =
        ForkedJvm.start(
            dir.resolve("blobs.log"),
            List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
            BlobLargeValuesMain.class,
            dir.resolve("warehouse").toUri().toString(),
            String.valueOf(rows),
            String.valueOf(mb));
    int exit = jvm.waitFor(600);
    String output = jvm.output();
    assertThat(exit).as("forked JVM output:\n%s", output).isZero();
    String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow();
    Map<String, String> result = new HashMap<>();
    for (String part : line.substring("RESULT ".length()).split(" ")) {
      int eq = part.indexOf('=');
      result.put(part.substring(0, eq), part.substring(eq + 1));
    }
    assertThat(result.get("ok")).isEqualTo("true");
    assertThat(Long.parseLong(result.get("rows"))).isEqualTo(rows);
    long total = (long) rows * mb << 20;
    assertThat(Long.parseLong(result.get("bytes"))).isEqualTo(total);
    // more bytes than the heap, in several files rolled at 64 MB
    assertThat(total).isGreaterThan(Long.parseLong(result.get("maxHeap")));
    assertThat(Long.parseLong(result.get("blobFiles"))).isGreaterThanOrEqualTo(6);
  }

  @Test
  void arrayAndMapValuesRoundTripAndCompactUnderASmallHeap() throws Exception {
    int rows = 12;
    int mb = 8;
    ForkedJvm jvm =
        ForkedJvm.start(
            dir.resolve("collections.log"),
            List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
            BlobCollectionLargeValuesMain.class,
            dir.resolve("warehouse").toUri().toString(),
            String.valueOf(rows),
            String.valueOf(mb));
    int exit = jvm.waitFor(600);
    String output = jvm.output();
    assertThat(exit).as("forked JVM output:\n%s", output).isZero();
    Map<String, String> result = result(output);
    assertThat(result.get("ok")).isEqualTo("true");
    assertThat(Long.parseLong(result.get("rows"))).isEqualTo(rows);
    // three 8 MB elements a row (two array elements, one map value): more than the heap
    long total = 3L * rows * mb << 20;
    assertThat(Long.parseLong(result.get("bytes"))).isEqualTo(total);
    assertThat(total).isGreaterThan(Long.parseLong(result.get("maxHeap")));
    // the two commits' data files merged into one; the blob files were kept
    assertThat(result.get("dataFiles")).isEqualTo("1");
  }

  private static Map<String, String> result(String output) {
    String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow();
    Map<String, String> result = new HashMap<>();
    for (String part : line.substring("RESULT ".length()).split(" ")) {
      int eq = part.indexOf('=');
      result.put(part.substring(0, eq), part.substring(eq + 1));
    }
    return result;
  }
}

package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.schema.SchemaFactory;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge whose run fails to open closes the runs it opened, and the original failure is the one
 * reported, with close failures suppressed.
 */
class ClosingOnFailureTest {
  private static final KeyValueLayout LAYOUT =
      new KeyValueLayout(
          SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), Map.of(), null));

  @TempDir Path dir;

  /** A run of one row that counts its closes; fails its first read when {@code fail} is set. */
  private static final class CountingRun implements CloseableIterator<InternalRow> {
    private final RuntimeException fail;
    private final RuntimeException failOnClose;
    private boolean done;
    int closes;

    CountingRun(RuntimeException fail, RuntimeException failOnClose) {
      this.fail = fail;
      this.failOnClose = failOnClose;
    }

    @Override
    public boolean hasNext() {
      if (fail != null) {
        throw fail;
      }
      return !done;
    }

    @Override
    public InternalRow next() {
      done = true;
      return new GenericInternalRow(
          new Object[] {1L, 0L, RowKind.INSERT.value(), 1L, UTF8String.fromString("a")});
    }

    @Override
    public void close() {
      closes++;
      if (failOnClose != null) {
        throw failOnClose;
      }
    }
  }

  @Test
  void aRunFailingToOpenClosesEveryRun() {
    RuntimeException openFailure = new UncheckedIOException(new IOException("run 3 is missing"));
    RuntimeException closeFailure = new IllegalStateException("run 2 failed to close");
    List<CountingRun> runs =
        List.of(
            new CountingRun(null, null),
            new CountingRun(null, closeFailure),
            new CountingRun(openFailure, null),
            new CountingRun(null, null));
    assertThatThrownBy(() -> new MergeIterator(new ArrayList<>(runs), LAYOUT))
        .isSameAs(openFailure)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(closeFailure));
    assertThat(runs).allSatisfy(run -> assertThat(run.closes).isEqualTo(1));
  }

  private KeyValues spilledThreeTimes() {
    KeyValues buffer = new KeyValues(LAYOUT, "db.t");
    long sequence = 0;
    for (String spill : List.of("a", "b", "c")) {
      for (long id = 0; id < 50; id++) {
        buffer.add(TestTables.row(id, spill + id), sequence++, RowKind.INSERT.value());
      }
      buffer.spill(dir.resolve(spill));
    }
    return buffer;
  }

  private static Path onlyFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.findFirst().orElseThrow();
    }
  }

  @Test
  void aMissingSpillClosesTheSpillsOpenedBeforeIt() throws IOException {
    assumeThat(Path.of("/proc/self/fd")).isDirectory();
    KeyValues buffer = spilledThreeTimes();
    Files.delete(onlyFile(dir.resolve("c")));
    assertThatThrownBy(buffer::sortedMerged)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("Failed to open spill file " + dir.resolve("c"));
    assertThat(openFilesUnder(dir)).isEmpty();
    buffer.clear();
  }

  @Test
  void aCorruptSpillClosesEverySpill() throws IOException {
    assumeThat(Path.of("/proc/self/fd")).isDirectory();
    KeyValues buffer = spilledThreeTimes();
    try (RandomAccessFile file = new RandomAccessFile(onlyFile(dir.resolve("b")).toFile(), "rw")) {
      file.seek(20);
      file.write(file.read() ^ 1);
    }
    assertThatThrownBy(
            () -> {
              try (CloseableIterator<InternalRow> rows = buffer.sortedMerged()) {
                rows.hasNext();
              }
            })
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + dir.resolve("b"))
        .hasMessageContaining("checksum mismatch");
    assertThat(openFilesUnder(dir)).isEmpty();
    buffer.clear();
  }

  /** The files under {@code root} this JVM holds open (Linux). */
  private static List<Path> openFilesUnder(Path root) throws IOException {
    Path real = root.toRealPath();
    List<Path> open = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(real)) {
            open.add(target);
          }
        } catch (IOException e) {
          // the descriptor closed while listing (the listing's own): not a spill
        }
      }
    }
    return open;
  }
}

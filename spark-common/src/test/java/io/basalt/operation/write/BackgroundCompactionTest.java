package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction off the write thread: a writer waits for its bucket's compaction only past {@code
 * num-sorted-run.stop-trigger}, the committed result is complete and equal to the rows written, and
 * a failed compaction fails the write with its cause.
 */
class BackgroundCompactionTest {
  @TempDir Path dir;

  private FileStoreTable table(String stopTrigger) {
    return table(dir, stopTrigger);
  }

  private FileStoreTable table(Path at, String stopTrigger) {
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("write-buffer-size", "4kb");
    options.put("write-buffer-spillable", "false"); // every flush is a sorted run
    options.put("num-sorted-run.compaction-trigger", "2");
    if (stopTrigger != null) {
      options.put("num-sorted-run.stop-trigger", stopTrigger);
    }
    return TestTables.create(at, true, List.of(), options);
  }

  /** Writes three versions of 600 keys; returns the newest value of each. */
  private static TreeMap<Long, String> writeRounds(TableWrite write) {
    TreeMap<Long, String> model = new TreeMap<>();
    for (int round = 0; round < 3; round++) {
      for (long id = 0; id < 600; id++) {
        String value = "r" + round + "-" + id;
        write.write(TestTables.row(id, value));
        model.put(id, value);
      }
    }
    return model;
  }

  private static TreeMap<Long, String> read(FileStoreTable table) {
    TreeMap<Long, String> read = new TreeMap<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      try (CloseableIterator<InternalRow> rows = table.newRead(TestTables.ID_V).read(split)) {
        while (rows.hasNext()) {
          InternalRow row = rows.next();
          assertThat(read.put(row.getLong(0), row.getUTF8String(1).toString())).isNull();
        }
      }
    }
    return read;
  }

  @Test
  void theWriterWaitsOnlyPastTheStopTriggerAndTheResultIsComplete() {
    FileStoreTable table = table("3");
    TableWrite write = table.newWrite(null, false);
    // compactions that no thread picks up run only when the writer waits for them
    List<Runnable> neverRun = new ArrayList<>();
    write.useCompactionExecutor(neverRun::add);
    TreeMap<Long, String> model = writeRounds(write);
    assertThat(write.flushCount()).isGreaterThan(10);
    assertThat(write.compactionWaits())
        .as("with compactions pending, the stop trigger makes the writer wait")
        .isPositive()
        .isLessThan(write.flushCount());
    List<CommitMessage> messages = write.prepareCommit();
    assertThat(messages).singleElement().satisfies(m -> assertThat(m.hasCompaction()).isTrue());
    table.newCommit("user").commit(messages, 1);
    assertThat(read(table)).isEqualTo(model);
  }

  @Test
  void aStopTriggerOfTheDefaultWaitsLessThanATightOne() {
    TableWrite tight = table(dir.resolve("tight"), "2").newWrite(null, false);
    tight.useCompactionExecutor(task -> {});
    writeRounds(tight);
    long tightWaits = tight.compactionWaits();
    tight.abort();

    // default: compaction-trigger + 3
    TableWrite relaxed = table(dir.resolve("relaxed"), null).newWrite(null, false);
    relaxed.useCompactionExecutor(task -> {});
    writeRounds(relaxed);
    assertThat(relaxed.compactionWaits()).isPositive().isLessThan(tightWaits);
    relaxed.abort();
  }

  @Test
  void compactionsOnTheirOwnThreadGiveTheRowsWritten() {
    FileStoreTable table = table(null);
    TableWrite write = table.newWrite(null, false);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      write.useCompactionExecutor(thread);
      TreeMap<Long, String> model = writeRounds(write);
      table.newCommit("user").commit(write.prepareCommit(), 1);
      assertThat(read(table)).isEqualTo(model);
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void aFailedCompactionFailsTheWriteWithItsCause() throws IOException {
    FileStoreTable table = table(null);
    TableWrite write = table.newWrite(null, false);
    write.useCompactionExecutor(task -> {});
    for (long id = 0; id < 300; id++) {
      write.write(TestTables.row(id, "value-" + id));
    }
    assertThat(write.flushCount()).isGreaterThan(1);
    // the pending compaction reads the flushed runs, which are gone
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("data-")).toList()) {
        Files.delete(file);
      }
    }
    assertThatThrownBy(write::prepareCommit)
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Background compaction of bucket 0 (")
        .hasMessageContaining("of table db.t failed")
        .hasMessageContaining("'write-only' = 'true'")
        .cause()
        .isNotNull();
    write.abort();
  }
}

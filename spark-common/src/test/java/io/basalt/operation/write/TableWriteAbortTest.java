package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Aborting a write deletes every file it wrote, also files flushed before the abort. */
class TableWriteAbortTest {
  @TempDir Path dir;

  @Test
  void abortDeletesFlushedAndCommittedFiles() throws IOException {

    FileStoreTable table =
        TestTables.create(
            dir,
            true,
            List.of(),
            Map.of("bucket", "2", "write-buffer-size", "4kb", "write-buffer-spillable", "false"));

    TableWrite write = table.newWrite(null, false);
    for (long i = 0; i < 2000; i++) {
      write.write(new GenericInternalRow(new Object[] {i, UTF8String.fromString("value-" + i)}));
    }
    assertThat(write.flushCount()).as("a 4kb buffer must flush").isGreaterThan(1);
    assertThat(dataFiles()).isNotEmpty();
    write.abort();
    assertThat(dataFiles()).isEmpty();

    TableWrite second = table.newWrite(null, false);
    second.write(new GenericInternalRow(new Object[] {1L, UTF8String.fromString("x")}));
    List<CommitMessage> messages = second.prepareCommit();
    assertThat(dataFiles()).hasSize(1);
    table.newCommit("user").abort(messages);
    assertThat(dataFiles()).isEmpty();
    assertThat(table.latestSnapshot()).isEmpty();
  }

  private List<Path> dataFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
    }
  }
}

package io.basalt.operation.write;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write buffer smaller than a buffer's smallest allocation: flushing frees nothing, so the write
 * must go on beyond the budget instead of flushing forever.
 */
class TinyWriteBufferTest {
  @TempDir Path dir;

  @Test
  void aBufferBelowOnePageStillWritesEveryRow() {
    FileStoreTable table =
        TestTables.create(
            dir,
            true,
            List.of(),
            Map.of("bucket", "1", "write-buffer-size", "1kb", "write-buffer-spillable", "false"));
    TreeMap<Long, String> model = new TreeMap<>();
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          TableWrite write = table.newWrite(null, false);
          for (long id = 0; id < 200; id++) {
            write.write(row(id, "v" + id));
            model.put(id, "v" + id);
          }
          table.newCommit("u").commit(write.prepareCommit(), 1);
        });
    assertThat(readAll(table)).isEqualTo(model);
  }
}

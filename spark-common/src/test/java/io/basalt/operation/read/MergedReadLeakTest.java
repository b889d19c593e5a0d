package io.basalt.operation.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.schema.SchemaFactory;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.testing.TrackingFileSystem;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merged read whose run fails to open closes every stream it opened (counted by {@link
 * TrackingFileSystem}), and reports the original failure.
 */
class MergedReadLeakTest {
  @TempDir Path dir;

  @BeforeEach
  void reset() {
    TrackingFileSystem.reset();
  }

  @Test
  void aMergedReadWhoseRunFailsToOpenClosesTheRunsAlreadyOpen() {
    FileStoreTable table =
        FileStoreTable.create(
            TrackingFileSystem.fileIO(),
            TrackingFileSystem.path(dir),
            "db.t",
            SchemaFactory.create(
                0,
                TestTables.ID_V,
                List.of(),
                List.of("id"),
                Map.of("bucket", "1", "write-only", "true", "commit.single-writer", "true"),
                null));
    for (int i = 0; i < 3; i++) {
      TestTables.upsert(table, Map.of(1L, "v" + i, 2L + i, "w" + i));
    }
    List<DataSplit> splits = table.newScan().plan().splits();
    assertThat(splits).hasSize(1);
    DataSplit split = splits.get(0);
    assertThat(split.files()).hasSize(3);
    assertThat(split.rawConvertible()).isFalse();
    assertThat(TrackingFileSystem.openStreams()).isEmpty();

    // the second data file opened fails: the first is open by then
    TrackingFileSystem.failOpen("data-", 2);
    SplitRead read = table.newRead(TestTables.ID_V);
    assertThatThrownBy(
            () -> {
              try (CloseableIterator<InternalRow> rows = read.read(split)) {
                rows.hasNext();
              }
            })
        .hasStackTraceContaining("Injected failure opening");
    assertThat(TrackingFileSystem.openStreams()).isEmpty();

    // and without the fault, the read works and closes everything
    TrackingFileSystem.reset();
    assertThat(TestTables.readAll(table)).containsEntry(1L, "v2").hasSize(4);
    assertThat(TrackingFileSystem.openStreams()).isEmpty();
  }
}

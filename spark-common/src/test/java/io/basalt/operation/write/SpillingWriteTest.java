package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full write buffer spills to local disk; at commit the spills merge back into one level-0 file
 * per bucket with the newest version of each key, and the spill files are gone.
 */
class SpillingWriteTest {
  @TempDir Path dir;

  /**
   * Outside Spark, spills go under java.io.tmpdir; this test points it at its own directory so that
   * spills of other processes on the machine do not change its counts.
   */
  @Test
  void spillsMergeIntoOneFilePerBucketKeepingTheNewestVersions() throws IOException {
    String tmp = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", Files.createDirectories(dir.resolve("tmp")).toString());
    try {
      spillAndMerge();
    } finally {
      System.setProperty("java.io.tmpdir", tmp);
    }
  }

  private void spillAndMerge() throws IOException {
    StructType type = TestTables.ID_V;
    FileStoreTable table =
        TestTables.create(
            dir,
            true,
            List.of(),
            Map.of("bucket", "2", "write-buffer-size", "8kb", "write-only", "true"));
    long spillsBefore = spillFiles();

    TableWrite write = table.newWrite(null, false);
    TreeMap<Long, String> model = new TreeMap<>();
    for (int round = 0; round < 3; round++) {
      for (long id = 0; id < 1500; id++) {
        String value = "r" + round + "-" + id;
        write.write(new GenericInternalRow(new Object[] {id, UTF8String.fromString(value)}));
        model.put(id, value);
      }
    }
    assertThat(write.spilledBytes()).as("an 8kb buffer must spill").isGreaterThan(0);
    assertThat(spillFiles()).isGreaterThan(spillsBefore);
    List<CommitMessage> messages = write.prepareCommit();
    assertThat(messages).hasSize(2).allMatch(m -> m.newFiles().size() == 1);
    assertThat(spillFiles()).as("spill files are deleted after the flush").isEqualTo(spillsBefore);
    table.newCommit("user").commit(messages, 1);

    TreeMap<Long, String> read = new TreeMap<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      assertThat(split.rawConvertible()).isTrue();
      try (CloseableIterator<InternalRow> rows = table.newRead(type).read(split)) {
        while (rows.hasNext()) {
          InternalRow row = rows.next();
          read.put(row.getLong(0), row.getUTF8String(1).toString());
        }
      }
    }
    assertThat(read).isEqualTo(model);
  }

  private static long spillFiles() throws IOException {
    Path spillDir = Paths.get(System.getProperty("java.io.tmpdir"), "basalt-spill");
    if (!Files.exists(spillDir)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(spillDir)) {
      return files.count();
    }
  }
}

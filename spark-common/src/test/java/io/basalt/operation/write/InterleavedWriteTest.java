package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key write gets its rows unsorted (Spark only clusters them by bucket): rows of many
 * partitions and buckets arrive interleaved, through one reused row object, and each (partition,
 * bucket) still gets exactly one sorted level-0 file holding the newest version of each key.
 */
class InterleavedWriteTest {
  @TempDir Path dir;

  @Test
  void interleavedPartitionsAndBucketsWriteOneFilePerBucketWithTheNewestVersions() {
    FileStoreTable table =
        TestTables.create(dir, true, List.of("p"), Map.of("bucket", "4", "write-only", "true"));
    TableWrite write = table.newWrite(null, false);
    TreeMap<Long, String> model = new TreeMap<>();
    Random random = new Random(42);
    GenericInternalRow row = new GenericInternalRow(3); // reused, as Spark reuses its rows
    for (int i = 0; i < 6000; i++) {
      long id = random.nextInt(2000);
      String value = "v" + i;
      row.update(0, id);
      row.update(1, UTF8String.fromString(value));
      row.update(2, UTF8String.fromString("p" + (id % 5))); // a key stays in its partition
      write.write(row);
      model.put(id, value);
    }
    List<CommitMessage> messages = write.prepareCommit();

    Set<String> buckets = new HashSet<>();
    for (CommitMessage message : messages) {
      assertThat(message.newFiles()).as("one file per bucket").hasSize(1);
      assertThat(buckets.add(message.partition() + "/" + message.bucket())).isTrue();
    }
    assertThat(buckets).hasSize(5 * 4);
    table.newCommit("user").commit(messages, 1);
    assertThat(TestTables.readAll(table)).isEqualTo(model);
  }
}

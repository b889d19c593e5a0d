package io.basalt.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.operation.compact.PostponedCompactor;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Postponed-bucket writes land in bucket -2 where reads do not see them; fixed-bucket writes use
 * the partition's count; the compactor moves postponed rows into buckets in write order.
 */
class PostponedBucketTest {
  @TempDir Path dir;

  private int tables;

  private FileStoreTable table(Map<String, String> options) {
    Map<String, String> all = new java.util.HashMap<>(options);
    all.put("bucket", "-2");
    return TestTables.create(dir.resolve("t" + tables++), true, List.of(), all);
  }

  private static void commit(FileStoreTable table, TableWrite write) {
    table.newCommit("test").commit(write.prepareCommit(), Long.MAX_VALUE);
  }

  @Test
  void postponedWritesLandInTheInvisiblePostponedBucket() {
    FileStoreTable table = table(Map.of());
    TableWrite write = table.newWrite(null, false);
    write.write(TestTables.row(1, "a"));
    write.write(TestTables.row(2, "b"));
    List<CommitMessage> messages = write.prepareCommit();

    assertThat(messages).hasSize(1);
    CommitMessage message = messages.get(0);
    assertThat(message.bucket()).isEqualTo(PostponedBucket.BUCKET);
    assertThat(message.totalBuckets()).isEqualTo(PostponedBucket.BUCKET);
    assertThat(message.newFiles())
        .allMatch(
            f -> f.fileName().matches("data--u-[0-9a-f-]+-s-\\d+-w-[0-9a-f-]+-\\d+\\.parquet"));
    assertThat(table.dataFilePaths().bucketDir(message.partition(), -2).getName())
        .isEqualTo(PostponedBucket.DIRECTORY);
    table.newCommit("test").commit(messages, Long.MAX_VALUE);
    assertThat(TestTables.readAll(table)).isEmpty();
  }

  @Test
  void fixedBucketWritesUseTheDefaultCountThenThePartitionsOwn() {
    FileStoreTable table = table(Map.of("postpone.default-bucket-num", "3"));
    TableWrite write = table.newWrite(null, false, true);
    for (long id = 0; id < 30; id++) {
      write.write(TestTables.row(id, "v" + id));
    }
    List<CommitMessage> messages = write.prepareCommit();
    assertThat(messages).extracting(CommitMessage::totalBuckets).containsOnly(3);
    assertThat(messages).extracting(CommitMessage::bucket).containsExactlyInAnyOrder(0, 1, 2);
    table.newCommit("test").commit(messages, Long.MAX_VALUE);
    assertThat(TestTables.readAll(table)).hasSize(30);

    // the partition keeps 3 buckets when the default changes
    FileStoreTable changed = table.copyWithOptions(Map.of("postpone.default-bucket-num", "5"));
    TableWrite next = changed.newWrite(TestTables.latestId(changed), false, true);
    next.write(TestTables.row(40, "x"));
    assertThat(next.prepareCommit()).extracting(CommitMessage::totalBuckets).containsOnly(3);
  }

  @Test
  void theCompactorAppliesEachKeysVersionsInWriteOrder() {
    FileStoreTable table = table(Map.of());
    for (String value : List.of("first", "second", "third")) {
      TableWrite write = table.newWrite(TestTables.latestId(table), false);
      write.write(TestTables.row(1, value));
      write.write(TestTables.row(2, value + "-2"));
      commit(table, write);
    }
    assertThat(TestTables.readAll(table)).isEmpty();
    DataSplit postponed =
        table.newScan().forCompaction().plan().splits().stream()
            .filter(s -> s.bucket() == PostponedBucket.BUCKET)
            .findFirst()
            .orElseThrow();
    assertThat(postponed.files()).hasSize(3);

    List<CommitMessage> moved = new PostponedCompactor(table).compact(postponed, 2);
    table.newCommit("compact").commitCompaction(moved, Long.MAX_VALUE);

    assertThat(TestTables.readAll(table))
        .isEqualTo(new TreeMap<>(Map.of(1L, "third", 2L, "third-2")));
    assertThat(table.newScan().forCompaction().plan().splits())
        .allMatch(s -> s.bucket() >= 0 && s.totalBuckets() == 2);
  }

  @Test
  void onlyBatchWritesThatTheOptionAllowsGoToFixedBuckets() {
    assertThat(PostponedBucket.writesFixedBuckets(table(Map.of()), false)).isTrue();
    assertThat(
            PostponedBucket.writesFixedBuckets(
                table(Map.of("postpone.batch-write-fixed-bucket", "false")), true))
        .isFalse();
    FileStoreTable vectors = table(Map.of("deletion-vectors.enabled", "true"));
    assertThat(PostponedBucket.writesFixedBuckets(vectors, false)).isFalse();
    assertThat(PostponedBucket.writesFixedBuckets(vectors, true)).isTrue();
  }
}

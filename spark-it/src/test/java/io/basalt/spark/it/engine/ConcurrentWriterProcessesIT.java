package io.basalt.spark.it.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.operation.read.SplitRead;
import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writer processes commit to one primary-key table at the same time through the engine API:
 * optimistic commits must serialize them without losing or duplicating a commit.
 */
class ConcurrentWriterProcessesIT {
  private static final int WRITERS = 2;
  private static final int COMMITS = 20;
  private static final int ROWS = 200;

  @TempDir Path dir;

  @Test
  void twoProcessesCommitEveryRowExactlyOnce() throws Exception {
    StructType type =
        new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dir.resolve("t").toUri());
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            root,
            "db.concurrent",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of("id"),
                // write-only: this test is about writers and merge reads, not compaction
                Map.of(
                    "write-only", "true",
                    "bucket", "2",
                    "commit.max-retries", "200",
                    "commit.min-retry-wait", "5 ms",
                    "commit.max-retry-wait", "200 ms"),
                null));

    long start = System.nanoTime();
    List<ForkedJvm> jvms = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      jvms.add(
          ForkedJvm.start(
              dir.resolve("writer-" + w + ".log"),
              List.of("-Xmx512m"),
              ConcurrentWriterMain.class,
              root.toString(),
              String.valueOf(w),
              String.valueOf(COMMITS),
              String.valueOf(ROWS)));
    }
    for (ForkedJvm jvm : jvms) {
      int exit = jvm.waitFor(120);
      assertThat(exit).as("writer output:\n%s", jvm.output()).isZero();
    }
    System.out.printf(
        "ConcurrentWriterProcessesIT: %d writers x %d commits in %d ms%n",
        WRITERS, COMMITS, (System.nanoTime() - start) / 1_000_000);

    SnapshotManager snapshots = table.snapshotManager();
    assertThat(snapshots.earliestSnapshotId()).hasValue(1);
    assertThat(snapshots.latestSnapshotId()).hasValue(WRITERS * COMMITS);
    Map<String, Integer> perUser = new HashMap<>();
    for (long id = 1; id <= WRITERS * COMMITS; id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      assertThat(snapshot.id()).isEqualTo(id);
      assertThat(snapshot.commitKind()).isEqualTo(CommitKind.APPEND);
      perUser.merge(snapshot.commitUser(), 1, Integer::sum);
    }
    assertThat(perUser).isEqualTo(Map.of("writer-0", COMMITS, "writer-1", COMMITS));
    assertThat(snapshots.latestSnapshot().orElseThrow().totalRecordCount())
        .isEqualTo((long) WRITERS * COMMITS * ROWS);

    Map<Long, String> expected = new HashMap<>();
    for (int w = 0; w < WRITERS; w++) {
      for (int c = 0; c < COMMITS; c++) {
        for (int i = 0; i < ROWS; i++) {
          long key = ConcurrentWriterMain.key(w, c, i, ROWS);
          expected.put(key, ConcurrentWriterMain.value(w, c, key));
        }
      }
    }
    Map<Long, String> actual = new HashMap<>();
    SplitRead read = table.newRead(type);
    for (DataSplit split : table.newScan().plan().splits()) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          assertThat(actual.put(row.getLong(0), row.getUTF8String(1).toString())).isNull();
        }
      }
    }
    assertThat(actual).isEqualTo(expected);
  }
}

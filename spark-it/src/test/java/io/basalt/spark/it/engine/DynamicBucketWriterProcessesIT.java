package io.basalt.spark.it.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifests;
import io.basalt.operation.read.SplitRead;
import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writer JVMs write the same keys into one empty dynamic-bucket table and commit at the same
 * time: one commit lands, the other is refused naming the single-writer rule, and no key is in two
 * buckets.
 */
class DynamicBucketWriterProcessesIT {
  private static final int WRITERS = 2;
  private static final int ROWS = 60;

  @TempDir Path dir;

  @Test
  void oneWriterCommitsTheOtherFailsCleanly() throws Exception {
    StructType type =
        new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dir.resolve("t").toUri());
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            root,
            "db.dynamic",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of("id"),
                Map.of(
                    "dynamic-bucket.target-row-num", "10",
                    "dynamic-bucket.assigner-parallelism", "2"),
                null));
    Path barrier = Files.createDirectory(dir.resolve("barrier"));

    List<ForkedJvm> jvms = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      jvms.add(
          ForkedJvm.start(
              dir.resolve("writer-" + w + ".log"),
              List.of("-Xmx512m"),
              DynamicBucketWriterMain.class,
              root.toString(),
              String.valueOf(w),
              String.valueOf(ROWS),
              barrier.toString(),
              String.valueOf(WRITERS)));
    }
    List<Integer> exits = new ArrayList<>();
    StringBuilder outputs = new StringBuilder();
    for (ForkedJvm jvm : jvms) {
      exits.add(jvm.waitFor(120));
      outputs.append(jvm.output()).append('\n');
    }
    assertThat(exits)
        .as("writer output:\n%s", outputs)
        .containsExactlyInAnyOrder(0, DynamicBucketWriterMain.CONFLICT_EXIT);
    assertThat(outputs.toString())
        .contains("Commit to dynamic-bucket table db.dynamic conflicts with snapshot 1")
        .contains("Nothing was committed. Dynamic-bucket tables take one writer at a time");

    Snapshot latest = table.snapshotManager().latestSnapshot().orElseThrow();
    assertThat(latest.id()).isEqualTo(1);
    // every key once, all from the writer that committed
    Map<Long, String> rows = new HashMap<>();
    SplitRead read = table.newRead(type);
    Set<Integer> buckets = new HashSet<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      buckets.add(split.bucket());
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          assertThat(rows.put(row.getLong(0), row.getUTF8String(1).toString())).isNull();
        }
      }
    }
    assertThat(rows).hasSize(ROWS);
    assertThat(new HashSet<>(rows.values())).hasSize(1);
    // 2 assigners filling buckets of 10 keys each
    assertThat(buckets.size()).isBetween(ROWS / 10, ROWS / 10 + 2);
    long hashes =
        new IndexManifests(table.fileIO(), table.paths())
            .read(latest.indexManifest()).stream()
                .filter(e -> IndexFileMeta.HASH.equals(e.indexFile().indexType()))
                .mapToLong(e -> e.indexFile().rowCount())
                .sum();
    assertThat(hashes).isEqualTo(ROWS);
    // the refused writer deleted its files: only the winner's data files are on disk
    try (var files = Files.walk(dir.resolve("t"))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet")).count()).isEqualTo(ROWS / 10);
    }
  }
}

package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merges that decode their runs with {@link VectorizedFileOpener}, which sets a read up once per
 * schema and thread and reuses it for the next files: the merged rows equal those of the engine's
 * own row reader, over several runs, and after a read of another column set on the same opener.
 */
class VectorizedFileOpenerTest {
  private static final StructType SCHEMA =
      new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);

  @TempDir Path dir;

  private FileStoreTable table() {
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(dir.toUri()),
            "db.t",
            SchemaFactory.create(
                0, SCHEMA, List.of(), List.of("id"), Map.of("write-only", "true"), null));
    // three runs: every key, then updates of every third and every fifth key
    for (int round = 0; round < 3; round++) {
      OptionalLong latest = table.snapshotManager().latestSnapshotId();
      TableWrite write = table.newWrite(latest.isPresent() ? latest.getAsLong() : null, false);
      int step = round == 0 ? 1 : round == 1 ? 3 : 5;
      for (long id = 0; id < 300; id += step) {
        write.write(
            new GenericInternalRow(
                new Object[] {id, UTF8String.fromString("r" + round + "-" + id)}));
      }
      table.newCommit("u" + round).commit(write.prepareCommit(), round + 1);
    }
    return table;
  }

  private static TreeMap<Long, String> read(SplitRead read, List<DataSplit> splits, int columns) {
    TreeMap<Long, String> rows = new TreeMap<>();
    for (DataSplit split : splits) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow row = it.next();
          rows.put(row.getLong(0), columns == 1 ? "" : row.getUTF8String(1).toString());
        }
      }
    }
    return rows;
  }

  @Test
  void mergedRowsEqualTheRowReadersAcrossRunsAndSchemas() {
    FileStoreTable table = table();
    List<DataSplit> splits = table.newScan().plan().splits();
    assertThat(splits).anyMatch(split -> !split.rawConvertible());

    TreeMap<Long, String> want = read(new SplitRead(table, SCHEMA), splits, 2);
    assertThat(want).hasSize(300);
    assertThat(want.get(15L)).isEqualTo("r2-15");
    assertThat(want.get(3L)).isEqualTo("r1-3");
    assertThat(want.get(1L)).isEqualTo("r0-1");

    SplitRead vectorized = new SplitRead(table, SCHEMA);
    VectorizedFileOpener opener =
        new VectorizedFileOpener(
            VectorizedReadOptions.of(vectorized.readType(), new Filter[0]), new Filter[0]);
    vectorized.withFileOpener(opener);
    assertThat(read(vectorized, splits, 2)).isEqualTo(want);

    // the same opener on another column set, then back: each read gets its own schema's setup
    StructType idOnly = new StructType().add("id", DataTypes.LongType, false);
    SplitRead ids = new SplitRead(table, idOnly).withFileOpener(opener);
    assertThat(read(ids, splits, 1).keySet()).isEqualTo(want.keySet());
    assertThat(read(vectorized, splits, 2)).isEqualTo(want);
  }
}

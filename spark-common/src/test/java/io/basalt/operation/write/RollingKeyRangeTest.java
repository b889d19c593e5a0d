package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRowCodec;
import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The min and max key of each data file a rolling writer finishes are the first and last key of
 * that file, also for a variable-length key and when the writer rolls mid-flush: the max key is
 * encoded as each row is written, not kept as a row the buffer may reuse.
 */
class RollingKeyRangeTest {
  @TempDir Path dir;

  @Test
  void eachRolledFileCarriesItsOwnFirstAndLastKey() {
    StructType type =
        new StructType().add("k", DataTypes.StringType, false).add("v", DataTypes.LongType);
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(dir.toUri()),
            "db.keys",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of("k"),
                Map.of("bucket", "1", "target-file-size", "1 kb"),
                null));
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      // lengths vary, so a stale variable-length part would show
      keys.add(String.format(Locale.ROOT, "key-%05d", i) + "x".repeat(i % 17));
    }
    List<String> shuffled = new ArrayList<>(keys);
    Collections.shuffle(shuffled, new Random(7));
    TableWrite write = table.newWrite(null, false);
    for (String key : shuffled) {
      write.write(new GenericInternalRow(new Object[] {UTF8String.fromString(key), 1L}));
    }
    List<CommitMessage> messages = write.prepareCommit();

    List<DataFileMeta> files = messages.get(0).newFiles();
    assertThat(files).hasSizeGreaterThan(1);
    BinaryRowCodec codec = new BinaryRowCodec(new StructType().add("k", DataTypes.StringType));
    int first = 0;
    for (DataFileMeta file : files) {
      int last = first + (int) file.rowCount() - 1;
      assertThat(codec.toRow(file.minKey()).getUTF8String(0).toString())
          .as(file.fileName())
          .isEqualTo(keys.get(first));
      assertThat(codec.toRow(file.maxKey()).getUTF8String(0).toString())
          .as(file.fileName())
          .isEqualTo(keys.get(last));
      first = last + 1;
    }
    assertThat(first).isEqualTo(keys.size());
    table.newCommit("user").commit(messages, 1);
  }
}

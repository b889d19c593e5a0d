package io.basalt.testing;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.scan.TableScan;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
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
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** Small tables for engine tests: (id BIGINT, v STRING[, p STRING]) with local files. */
public final class TestTables {
  private TestTables() {}

  public static final StructType ID_V =
      new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);

  public static final StructType ID_V_P = ID_V.add("p", DataTypes.StringType, false);

  /** A table (id, v) at {@code dir}, primary key id when {@code primaryKey}. */
  public static FileStoreTable create(
      Path dir, boolean primaryKey, List<String> partitionKeys, Map<String, String> options) {
    StructType type = partitionKeys.isEmpty() ? ID_V : ID_V_P;
    List<String> pk =
        primaryKey
            ? (partitionKeys.isEmpty() ? List.of("id") : List.of("id", "p"))
            : List.<String>of();
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.toUri()),
        "db.t",
        SchemaFactory.create(0, type, partitionKeys, pk, options, null));
  }

  public static InternalRow row(long id, String v) {
    return new GenericInternalRow(new Object[] {id, v == null ? null : UTF8String.fromString(v)});
  }

  public static InternalRow row(long id, String v, String p) {
    return new GenericInternalRow(
        new Object[] {id, v == null ? null : UTF8String.fromString(v), UTF8String.fromString(p)});
  }

  /**
   * Writes {@code rows} (value null in {@code values} = delete) based on the latest snapshot and
   * commits them as one batch APPEND.
   */
  public static OptionalLong upsert(FileStoreTable table, Map<Long, String> values) {
    TableWrite write = table.newWrite(latestId(table), false);
    for (Map.Entry<Long, String> e : values.entrySet()) {
      if (e.getValue() == null) {
        write.write(row(e.getKey(), null), RowKind.DELETE);
      } else {
        write.write(row(e.getKey(), e.getValue()));
      }
    }
    List<CommitMessage> messages = write.prepareCommit();
    return table.newCommit("test-" + java.util.UUID.randomUUID()).commit(messages, Long.MAX_VALUE);
  }

  public static Long latestId(FileStoreTable table) {
    OptionalLong id = table.snapshotManager().latestSnapshotId();
    return id.isPresent() ? id.getAsLong() : null;
  }

  /** All rows of the latest snapshot as id -> v (rows of (id, v[, ...])). */
  public static TreeMap<Long, String> readAll(FileStoreTable table) {
    return readAll(table, table.newScan());
  }

  public static TreeMap<Long, String> readAll(FileStoreTable table, TableScan scan) {
    TreeMap<Long, String> result = new TreeMap<>();
    SplitRead read = table.newRead(ID_V);
    for (DataSplit split : scan.plan().splits()) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow r = it.next();
          String old =
              result.put(r.getLong(0), r.isNullAt(1) ? null : r.getUTF8String(1).toString());
          if (old != null) {
            throw new AssertionError("key " + r.getLong(0) + " returned twice");
          }
        }
      }
    }
    return result;
  }
}

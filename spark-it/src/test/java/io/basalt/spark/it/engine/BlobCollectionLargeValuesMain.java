package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The forked JVM of {@link BlobLargeValuesIT} for ARRAY&lt;BINARY&gt; and MAP&lt;INT, BINARY&gt;
 * BLOB columns: writes {@code rows} rows in two commits, each with an array [value, null, value]
 * and a map {id: value} of {@code mb} MB values, compacts the table, then reads every element back
 * and compares its CRC with the one written. Prints one {@code RESULT key=value ...} line; exits 0
 * only when every element came back.
 */
public final class BlobCollectionLargeValuesMain {
  private BlobCollectionLargeValuesMain() {}

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    int rows = Integer.parseInt(args[1]);
    int bytes = Integer.parseInt(args[2]) << 20;
    StructType type =
        new StructType()
            .add("id", DataTypes.LongType)
            .add("frames", DataTypes.createArrayType(DataTypes.BinaryType))
            .add("parts", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.BinaryType));
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            root,
            "db.collections",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of(),
                Map.of(
                    "row-tracking.enabled", "true",
                    "data-evolution.enabled", "true",
                    "blob-field", "frames,parts",
                    "blob.target-file-size", "64mb"),
                null));

    // one value buffer for the whole write: the writer copies it to the blob file at once
    byte[] value = new byte[bytes];
    long[] expected = new long[rows];
    GenericInternalRow row = new GenericInternalRow(3);
    for (int half = 0; half < 2; half++) {
      TableWrite write = table.newWrite(null, false);
      for (int id = half * rows / 2; id < (half + 1) * rows / 2; id++) {
        expected[id] = BlobLargeValuesMain.fill(value, id);
        row.update(0, (long) id);
        row.update(1, new GenericArrayData(new Object[] {value, null, value}));
        row.update(
            2,
            new ArrayBasedMapData(
                new GenericArrayData(new Object[] {id}),
                new GenericArrayData(new Object[] {value})));
        write.write(row);
      }
      table.newCommit("collections").commit(write.prepareCommit(), half + 1);
    }
    value = null;

    List<CommitMessage> compaction = new ArrayList<>();
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      compaction.add(new BucketCompactor(table).compact(split, true));
    }
    table.newCommit("collections").commitCompaction(compaction, 3);

    List<DataSplit> splits = table.newScan().plan().splits();
    long dataFiles =
        splits.stream()
            .flatMap(s -> s.files().stream())
            .filter(f -> f.fileName().endsWith(".parquet"))
            .count();
    SplitRead read = table.newRead(type);
    long count = 0;
    long bytesRead = 0;
    boolean ok = true;
    CRC32 crc = new CRC32();
    for (DataSplit split : splits) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow r = it.next();
          long want = expected[(int) r.getLong(0)];
          ArrayData frames = r.getArray(1);
          MapData parts = r.getMap(2);
          ok &= frames.numElements() == 3 && frames.isNullAt(1) && parts.numElements() == 1;
          ok &= parts.keyArray().getInt(0) == (int) r.getLong(0);
          for (byte[] element :
              List.of(frames.getBinary(0), frames.getBinary(2), parts.valueArray().getBinary(0))) {
            crc.reset();
            crc.update(element);
            ok &= element.length == bytes && crc.getValue() == want;
            bytesRead += element.length;
          }
          count++;
        }
      }
    }
    ok &= count == rows;
    System.out.println(
        "RESULT ok="
            + ok
            + " rows="
            + count
            + " bytes="
            + bytesRead
            + " dataFiles="
            + dataFiles
            + " maxHeap="
            + Runtime.getRuntime().maxMemory());
    System.exit(ok ? 0 : 1);
  }
}

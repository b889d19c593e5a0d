package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The forked JVM of {@link BlobLargeValuesIT}: writes {@code rows} BLOB values of {@code mb} MB
 * each into a blob table, then reads them back and compares each value's CRC with the one written.
 * Prints one {@code RESULT key=value ...} line; exits 0 only when every value came back.
 */
public final class BlobLargeValuesMain {
  private BlobLargeValuesMain() {}

  /** Fills {@code value} with the bytes of row {@code id} and returns their CRC-32. */
  static long fill(byte[] value, long id) {
    long x = id * 0x9E3779B97F4A7C15L + 1;
    for (int i = 0; i < value.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      value[i] = (byte) x;
    }
    CRC32 crc = new CRC32();
    crc.update(value);
    return crc.getValue();
  }

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    int rows = Integer.parseInt(args[1]);
    int bytes = Integer.parseInt(args[2]) << 20;
    StructType type =
        new StructType().add("id", DataTypes.LongType).add("image", DataTypes.BinaryType);
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            root,
            "db.blobs",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of(),
                Map.of(
                    "row-tracking.enabled", "true",
                    "data-evolution.enabled", "true",
                    "blob-field", "image",
                    "blob.target-file-size", "64mb"),
                null));

    // one value buffer for the whole write: the writer copies it to the blob file at once
    byte[] value = new byte[bytes];
    long[] expected = new long[rows];
    TableWrite write = table.newWrite(null, false);
    GenericInternalRow row = new GenericInternalRow(2);
    for (int id = 0; id < rows; id++) {
      expected[id] = fill(value, id);
      row.update(0, (long) id);
      row.update(1, value);
      write.write(row);
    }
    table.newCommit("blobs").commit(write.prepareCommit(), 1);
    value = null;

    List<DataSplit> splits = table.newScan().plan().splits();
    long blobFiles =
        splits.stream()
            .flatMap(s -> s.files().stream())
            .filter(f -> f.fileName().endsWith(".blob"))
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
          byte[] image = r.getBinary(1);
          crc.reset();
          crc.update(image);
          ok &= image.length == bytes && crc.getValue() == expected[(int) r.getLong(0)];
          bytesRead += image.length;
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
            + " blobFiles="
            + blobFiles
            + " maxHeap="
            + Runtime.getRuntime().maxMemory());
    System.exit(ok ? 0 : 1);
  }
}

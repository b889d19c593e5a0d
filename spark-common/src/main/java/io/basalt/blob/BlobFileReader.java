package io.basalt.blob;

import java.io.Closeable;
import java.io.IOException;
import java.util.zip.CRC32;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;

/**
 * Reads the values of one {@code .blob} file by row position. Opening reads only the footer and the
 * index (a few bytes a row); each value is then read from its record alone, its magic, length and
 * CRC checked, so memory follows the largest value, never the file.
 */
public final class BlobFileReader implements Closeable {
  private final Path path;
  private final FSDataInputStream in;
  private final long[] lengths;
  private final long[] offsets;
  private final byte[] head = new byte[12];
  private final CRC32 crc = new CRC32();

  private BlobFileReader(Path path, FSDataInputStream in, long[] lengths, long[] offsets) {
    this.path = path;
    this.in = in;
    this.lengths = lengths;
    this.offsets = offsets;
  }

  /**
   * Opens {@code path} of {@code fileSize} bytes and reads its index.
   *
   * @throws IOException naming the file when it cannot be read or its footer or index is damaged
   */
  public static BlobFileReader open(FileSystem fs, Path path, long fileSize) throws IOException {
    FSDataInputStream in = fs.open(path);
    try {
      Index index = readIndex(in, path, fileSize);
      long[] lengths = index.lengths();
      long[] offsets = new long[lengths.length];
      long offset = 0;
      for (int i = 0; i < lengths.length; i++) {
        long length = lengths[i];
        if (length == BlobFormat.NULL_LENGTH || length == BlobFormat.PLACEHOLDER_LENGTH) {
          offsets[i] = -1;
          continue;
        }
        if (length < BlobFormat.RECORD_OVERHEAD) {
          throw corrupt(path, "record " + i + " has length " + length);
        }
        offsets[i] = offset;
        offset += length;
      }
      if (offset != index.dataEnd()) {
        throw corrupt(
            path, "its records take " + offset + " bytes, its data region " + index.dataEnd());
      }
      return new BlobFileReader(path, in, lengths, offsets);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** Every row's record length, and where the records end (the index starts). */
  private record Index(long[] lengths, long dataEnd) {}

  private static Index readIndex(FSDataInputStream in, Path path, long fileSize)
      throws IOException {
    if (fileSize < BlobFormat.FOOTER_LENGTH) {
      throw corrupt(path, "it has " + fileSize + " bytes, fewer than its 5-byte footer");
    }
    byte[] footer = new byte[BlobFormat.FOOTER_LENGTH];
    in.readFully(fileSize - BlobFormat.FOOTER_LENGTH, footer);
    if (footer[4] != BlobFormat.VERSION) {
      throw new IOException(
          "Blob file "
              + path
              + " has format version "
              + footer[4]
              + "; this reader knows version "
              + BlobFormat.VERSION
              + " only (written by a newer version?)");
    }
    int indexLength = BlobFormat.intLE(footer, 0);
    if (indexLength < 0 || indexLength > fileSize - BlobFormat.FOOTER_LENGTH) {
      throw corrupt(path, "its index length " + indexLength + " does not fit its size");
    }
    long dataEnd = fileSize - BlobFormat.FOOTER_LENGTH - indexLength;
    byte[] index = new byte[indexLength];
    in.readFully(dataEnd, index);
    try {
      return new Index(DeltaVarints.decode(index), dataEnd);
    } catch (IOException e) {
      throw corrupt(path, "its index is damaged: " + e.getMessage());
    }
  }

  private static IOException corrupt(Path path, String what) {
    return new IOException("Blob file " + path + " is damaged: " + what);
  }

  /** The number of rows (values, nulls included) in the file. */
  public int rowCount() {
    return lengths.length;
  }

  /**
   * The value of row {@code row}, or null; a fresh array each call.
   *
   * @throws IOException naming the file and row when the record is damaged
   */
  @Nullable
  public byte[] read(int row) throws IOException {
    long payload = startRecord(row);
    if (payload < 0) {
      return null;
    }
    byte[] value = readChecked(checkedSize(payload, row));
    finishRecord(row);
    return value;
  }

  /**
   * The ARRAY&lt;BINARY&gt; value of row {@code row}, or null: its elements read one after another
   * from the record, each into its own array.
   *
   * @throws IOException naming the file and row when the record is damaged
   */
  @Nullable
  public ArrayData readArray(int row) throws IOException {
    long payload = startRecord(row);
    if (payload < 0) {
      return null;
    }
    long recordEnd = offsets[row] + 4 + payload;
    int indexLength = trailerInt(row, recordEnd - 4, payload - BlobFormat.PAYLOAD_HEADER - 4);
    long[] lengths = index(row, recordEnd - 4 - indexLength, indexLength);
    header(row, BlobFormat.ARRAY_MAGIC, lengths.length);
    checkSum(row, lengths, payload - BlobFormat.PAYLOAD_HEADER - 4 - indexLength);
    byte[][] elements = values(row, lengths);
    readChecked(indexLength + 4); // the index, already decoded: read for the CRC
    finishRecord(row);
    return new GenericArrayData(elements);
  }

  /**
   * The MAP&lt;K, BINARY&gt; value of row {@code row}, or null, its keys decoded with {@code keys}.
   *
   * @throws IOException naming the file and row when the record is damaged
   */
  @Nullable
  public MapData readMap(int row, BlobMapKeys keys) throws IOException {
    long payload = startRecord(row);
    if (payload < 0) {
      return null;
    }
    long recordEnd = offsets[row] + 4 + payload;
    long room = payload - BlobFormat.PAYLOAD_HEADER - 8;
    int keyIndexLength = trailerInt(row, recordEnd - 8, room);
    int valueIndexLength = trailerInt(row, recordEnd - 4, room - keyIndexLength);
    long valueIndexAt = recordEnd - 8 - valueIndexLength;
    long[] keyLengths = index(row, valueIndexAt - keyIndexLength, keyIndexLength);
    long[] valueLengths = index(row, valueIndexAt, valueIndexLength);
    if (keyLengths.length != valueLengths.length) {
      throw corrupt(
          path,
          "record "
              + row
              + " has "
              + keyLengths.length
              + " keys but "
              + valueLengths.length
              + " values");
    }
    header(row, BlobFormat.MAP_MAGIC, keyLengths.length);
    long data = room - keyIndexLength - valueIndexLength;
    checkSum(row, valueLengths, data - checkSum(row, keyLengths, data));
    byte[][] keyBytes = values(row, keyLengths);
    Object[] decoded = new Object[keyBytes.length];
    for (int i = 0; i < decoded.length; i++) {
      if (keyBytes[i] == null) {
        throw corrupt(path, "record " + row + " has a null map key");
      }
      try {
        decoded[i] = keys.decode(keyBytes[i]);
      } catch (IllegalArgumentException e) {
        throw corrupt(path, "record " + row + ": " + e.getMessage());
      }
    }
    byte[][] values = values(row, valueLengths);
    readChecked(keyIndexLength + valueIndexLength + 8);
    finishRecord(row);
    return new ArrayBasedMapData(new GenericArrayData(decoded), new GenericArrayData(values));
  }

  /** Seeks to row's record and checks its magic; the payload length, or -1 for a null. */
  private long startRecord(int row) throws IOException {
    long length = lengths[row];
    if (length == BlobFormat.NULL_LENGTH) {
      return -1;
    }
    if (length == BlobFormat.PLACEHOLDER_LENGTH) {
      throw new IOException(
          "Blob file "
              + path
              + " holds a placeholder at row "
              + row
              + ", which Basalt cannot read");
    }
    in.seek(offsets[row]);
    crc.reset();
    in.readFully(head, 0, 4);
    crc.update(head, 0, 4);
    if (BlobFormat.intLE(head, 0) != BlobFormat.MAGIC) {
      throw corrupt(path, "record " + row + " does not start with the blob magic number");
    }
    return length - BlobFormat.RECORD_OVERHEAD;
  }

  private void finishRecord(int row) throws IOException {
    in.readFully(head, 0, 12);
    crc.update(head, 0, 8);
    if (BlobFormat.longLE(head, 0) != lengths[row]
        || BlobFormat.intLE(head, 8) != (int) crc.getValue()) {
      throw corrupt(path, "record " + row + " fails its length or CRC check");
    }
  }

  private int checkedSize(long bytes, int row) throws IOException {
    if (bytes > Integer.MAX_VALUE - 8) {
      throw new IOException(
          "Value of row "
              + row
              + " of blob file "
              + path
              + " has "
              + bytes
              + " bytes, more than a BINARY value can hold");
    }
    return (int) bytes;
  }

  private byte[] readChecked(int bytes) throws IOException {
    byte[] value = new byte[bytes];
    in.readFully(value);
    crc.update(value);
    return value;
  }

  /** An int32 of the record's trailer at {@code at}, which must lie in {@code [0, room]}. */
  private int trailerInt(int row, long at, long room) throws IOException {
    if (room < 0) {
      throw corrupt(path, "record " + row + " is too short for an array or map payload");
    }
    byte[] bytes = new byte[4];
    in.readFully(at, bytes);
    int value = BlobFormat.intLE(bytes, 0);
    if (value < 0 || value > room) {
      throw corrupt(path, "record " + row + " has an index length " + value + " that does not fit");
    }
    return value;
  }

  private long[] index(int row, long at, int length) throws IOException {
    byte[] bytes = new byte[length];
    in.readFully(at, bytes);
    try {
      return DeltaVarints.decode(bytes);
    } catch (IOException e) {
      throw corrupt(path, "the element index of record " + row + " is damaged: " + e.getMessage());
    }
  }

  /** Reads the payload header (after the record magic) and checks it against the index. */
  private int header(int row, int magic, int indexed) throws IOException {
    byte[] header = readChecked(BlobFormat.PAYLOAD_HEADER);
    if (BlobFormat.intLE(header, 0) != magic) {
      throw corrupt(
          path,
          "record "
              + row
              + " is not of the column's type (magic "
              + BlobFormat.intLE(header, 0)
              + ")");
    }
    if (header[4] != BlobFormat.PAYLOAD_VERSION) {
      throw new IOException(
          "Blob file "
              + path
              + " record "
              + row
              + " has payload version "
              + header[4]
              + "; this reader knows version "
              + BlobFormat.PAYLOAD_VERSION
              + " only");
    }
    int count = BlobFormat.intLE(header, 5);
    if (count != indexed) {
      throw corrupt(path, "record " + row + " holds " + count + " elements, its index " + indexed);
    }
    return count;
  }

  /** The bytes {@code lengths} take (nulls none), which may not pass {@code room}. */
  private long checkSum(int row, long[] lengths, long room) throws IOException {
    long sum = 0;
    for (long length : lengths) {
      if (length < BlobFormat.NULL_LENGTH || (length > 0 && length > room - sum)) {
        throw corrupt(path, "record " + row + " has element lengths that do not fit it");
      }
      sum += Math.max(length, 0);
    }
    return sum;
  }

  private byte[][] values(int row, long[] lengths) throws IOException {
    byte[][] values = new byte[lengths.length][];
    for (int i = 0; i < lengths.length; i++) {
      if (lengths[i] != BlobFormat.NULL_LENGTH) {
        values[i] = readChecked(checkedSize(lengths[i], row));
      }
    }
    return values;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}

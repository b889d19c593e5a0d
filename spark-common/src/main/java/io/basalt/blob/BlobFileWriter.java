package io.basalt.blob;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;

/**
 * Writes one {@code .blob} file: the values of one BLOB column, one record per non-null value, then
 * an index of every row's record length and a footer (layout in {@code package-info.java} and
 * docs/format.md). Values are copied through a small buffer, so a value never needs to fit in
 * memory twice. Not thread-safe.
 */
public final class BlobFileWriter implements Closeable {
  private static final int COPY_BUFFER = 8192;

  private final OutputStream out;
  private final CRC32 crc = new CRC32();
  private final byte[] buffer = new byte[COPY_BUFFER];
  private final byte[] scratch = new byte[8];
  private long[] lengths = new long[64];
  private int rows;
  private long position;
  private boolean finished;

  /** A writer over {@code out}, which it closes; {@code out} must be positioned at its start. */
  public BlobFileWriter(OutputStream out) {
    this.out = out;
  }

  /** Appends one row's value; null writes no record, only the index entry -1. */
  public void write(@Nullable byte[] value) throws IOException {
    if (value == null) {
      addLength(BlobFormat.NULL_LENGTH);
      return;
    }
    long start = startRecord();
    checked(value, 0, value.length);
    finishRecord(start);
  }

  /** Appends one row's value read from {@code value} up to its end (the stream is not closed). */
  public void write(InputStream value) throws IOException {
    long start = startRecord();
    for (int n = value.read(buffer); n >= 0; n = value.read(buffer)) {
      checked(buffer, 0, n);
    }
    finishRecord(start);
  }

  /**
   * Appends one row's ARRAY&lt;BINARY&gt; value as one record: {@code array-magic:int32
   * version:int8 count:int32}, the non-null elements' bytes, their lengths (-1 for null) in the
   * index codec, and that index's length as int32. Null writes no record.
   */
  public void writeArray(@Nullable ArrayData array) throws IOException {
    if (array == null) {
      addLength(BlobFormat.NULL_LENGTH);
      return;
    }
    long start = startRecord();
    int count = array.numElements();
    header(BlobFormat.ARRAY_MAGIC, count);
    long[] lengths = elements(array, count);
    trailer(DeltaVarints.encode(lengths, count));
    finishRecord(start);
  }

  /**
   * Appends one row's MAP&lt;K, BINARY&gt; value as one record: {@code map-magic:int32 version:int8
   * count:int32}, the keys' bytes ({@code keys}' form), the non-null values' bytes, the key lengths
   * and the value lengths (-1 for null) in the index codec, then both index lengths as int32.
   */
  public void writeMap(@Nullable MapData map, DataType keyType, BlobMapKeys keys)
      throws IOException {
    if (map == null) {
      addLength(BlobFormat.NULL_LENGTH);
      return;
    }
    long start = startRecord();
    int count = map.numElements();
    header(BlobFormat.MAP_MAGIC, count);
    ArrayData keyArray = map.keyArray();
    long[] keyLengths = new long[count];
    for (int i = 0; i < count; i++) {
      byte[] key = keys.encode(keyArray.get(i, keyType));
      checked(key, 0, key.length);
      keyLengths[i] = key.length;
    }
    long[] valueLengths = elements(map.valueArray(), count);
    byte[] keyIndex = DeltaVarints.encode(keyLengths, count);
    byte[] valueIndex = DeltaVarints.encode(valueLengths, count);
    checked(keyIndex, 0, keyIndex.length);
    checked(valueIndex, 0, valueIndex.length);
    BlobFormat.putIntLE(scratch, 0, keyIndex.length);
    BlobFormat.putIntLE(scratch, 4, valueIndex.length);
    checked(scratch, 0, 8);
    finishRecord(start);
  }

  private void header(int magic, int count) throws IOException {
    BlobFormat.putIntLE(scratch, 0, magic);
    scratch[4] = BlobFormat.PAYLOAD_VERSION;
    checked(scratch, 0, 5);
    BlobFormat.putIntLE(scratch, 0, count);
    checked(scratch, 0, 4);
  }

  private long[] elements(ArrayData values, int count) throws IOException {
    long[] lengths = new long[count];
    for (int i = 0; i < count; i++) {
      if (values.isNullAt(i)) {
        lengths[i] = BlobFormat.NULL_LENGTH;
      } else {
        byte[] value = values.getBinary(i);
        checked(value, 0, value.length);
        lengths[i] = value.length;
      }
    }
    return lengths;
  }

  private void trailer(byte[] index) throws IOException {
    checked(index, 0, index.length);
    BlobFormat.putIntLE(scratch, 0, index.length);
    checked(scratch, 0, 4);
  }

  /** Bytes written so far, the size the file would have without its index and footer. */
  public long position() {
    return position;
  }

  /** Rows written so far, nulls included. */
  public int rowCount() {
    return rows;
  }

  /** Writes the index and footer and closes the file; returns its size in bytes. */
  public long finish() throws IOException {
    if (!finished) {
      finished = true;
      byte[] index = DeltaVarints.encode(lengths, rows);
      out.write(index);
      BlobFormat.putIntLE(scratch, 0, index.length);
      out.write(scratch, 0, 4);
      out.write(BlobFormat.VERSION);
      position += index.length + BlobFormat.FOOTER_LENGTH;
      out.close();
    }
    return position;
  }

  /** Closes the stream without a footer (an aborted file, deleted by its owner). */
  @Override
  public void close() throws IOException {
    if (!finished) {
      finished = true;
      out.close();
    }
  }

  private long startRecord() throws IOException {
    crc.reset();
    long start = position;
    BlobFormat.putIntLE(scratch, 0, BlobFormat.MAGIC);
    checked(scratch, 0, 4);
    return start;
  }

  private void finishRecord(long start) throws IOException {
    // the record length covers magic, payload, this length and the CRC after it
    long recordLength = position - start + 12;
    BlobFormat.putLongLE(scratch, 0, recordLength);
    checked(scratch, 0, 8);
    BlobFormat.putIntLE(scratch, 0, (int) crc.getValue());
    out.write(scratch, 0, 4);
    position += 4;
    addLength(recordLength);
  }

  private void checked(byte[] bytes, int offset, int length) throws IOException {
    crc.update(bytes, offset, length);
    out.write(bytes, offset, length);
    position += length;
  }

  private void addLength(long length) {
    if (rows == lengths.length) {
      lengths = Arrays.copyOf(lengths, rows * 2);
    }
    lengths[rows++] = length;
  }
}

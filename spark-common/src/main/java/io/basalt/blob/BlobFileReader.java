package io.basalt.blob;

import java.io.Closeable;
import java.io.IOException;
import java.util.zip.CRC32;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

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
    long length = lengths[row];
    if (length == BlobFormat.NULL_LENGTH) {
      return null;
    }
    if (length == BlobFormat.PLACEHOLDER_LENGTH) {
      throw new IOException(
          "Blob file "
              + path
              + " holds a placeholder at row "
              + row
              + ", which Basalt cannot read");
    }
    long payload = length - BlobFormat.RECORD_OVERHEAD;
    if (payload > Integer.MAX_VALUE - 8) {
      throw new IOException(
          "Value of row "
              + row
              + " of blob file "
              + path
              + " has "
              + payload
              + " bytes, more"
              + " than a BINARY value can hold");
    }
    in.seek(offsets[row]);
    crc.reset();
    in.readFully(head, 0, 4);
    crc.update(head, 0, 4);
    if (BlobFormat.intLE(head, 0) != BlobFormat.MAGIC) {
      throw corrupt(path, "record " + row + " does not start with the blob magic number");
    }
    byte[] value = new byte[(int) payload];
    in.readFully(value);
    crc.update(value);
    in.readFully(head, 0, 12);
    crc.update(head, 0, 8);
    if (BlobFormat.longLE(head, 0) != length || BlobFormat.intLE(head, 8) != (int) crc.getValue()) {
      throw corrupt(path, "record " + row + " fails its length or CRC check");
    }
    return value;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}

package io.basalt.mergetree;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * A sorted run of the write buffer spilled to local disk, read back as one stream. Lives only until
 * its bucket writer flushes; never part of a table.
 *
 * <p>Layout: blocks of {@code [int payload length][int rows][int CRC32C of payload][payload]}, each
 * payload holding length-prefixed UnsafeRow bytes, then an end marker {@code [0][0][0][long total
 * rows]}. A local disk that fills up or a file changed underneath would otherwise lose rows without
 * a trace; with lengths, checksums and the end marker, the reader fails instead, naming the file.
 */
final class SpillFile {
  static final int DEFAULT_BLOCK_SIZE = 64 << 10;
  private static final int HEADER_BYTES = 12;

  private final Path path;
  private final int numFields;
  private final long bytes;
  private final long rows;

  private SpillFile(Path path, int numFields, long bytes, long rows) {
    this.path = path;
    this.numFields = numFields;
    this.bytes = bytes;
    this.rows = rows;
  }

  /**
   * Writes {@code rows} (in order, serialized by {@code toUnsafe}) to a new file in {@code dir}.
   */
  static SpillFile write(
      Path dir, int numFields, Iterator<InternalRow> rows, UnsafeProjection toUnsafe) {
    return write(dir, numFields, rows, toUnsafe, DEFAULT_BLOCK_SIZE);
  }

  /** As {@link #write(Path, int, Iterator, UnsafeProjection)}, with blocks of about {@code n}. */
  static SpillFile write(
      Path dir,
      int numFields,
      Iterator<InternalRow> rows,
      UnsafeProjection toUnsafe,
      int blockSize) {
    Path path;
    try {
      Files.createDirectories(dir);
      path = Files.createTempFile(dir, "basalt-spill-", ".bin");
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create a spill file in " + dir, e);
    }
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16))) {
      BlockWriter blocks = new BlockWriter(out, blockSize);
      while (rows.hasNext()) {
        InternalRow next = rows.next();
        blocks.add(next instanceof UnsafeRow unsafe ? unsafe : toUnsafe.apply(next));
      }
      blocks.finish();
      return new SpillFile(path, numFields, blocks.bytes, blocks.totalRows);
    } catch (IOException | RuntimeException e) {
      try {
        delete(path);
      } catch (RuntimeException deleteFailure) {
        e.addSuppressed(deleteFailure);
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new UncheckedIOException(
          "Failed to spill the write buffer to " + path, (IOException) e);
    }
  }

  long bytes() {
    return bytes;
  }

  Path path() {
    return path;
  }

  /**
   * The rows again, in written order; the returned row is reused between calls and valid until the
   * next call. Fails with a {@link BasaltException} naming the file when it is truncated or
   * corrupt.
   */
  CloseableIterator<InternalRow> read() {
    DataInputStream in;
    try {
      in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open spill file " + path, e);
    }
    return new BlockReader(in);
  }

  void delete() {
    delete(path);
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete spill file " + path, e);
    }
  }

  /** Collects rows into a block and writes it with its length, row count and checksum. */
  private static final class BlockWriter {
    private final DataOutputStream out;
    private final int blockSize;
    private final CRC32C crc = new CRC32C();
    private byte[] block;
    private int used;
    private int blockRows;
    private long totalRows;
    private long bytes;

    BlockWriter(DataOutputStream out, int blockSize) {
      this.out = out;
      this.blockSize = blockSize;
      this.block = new byte[blockSize];
    }

    void add(UnsafeRow row) throws IOException {
      int size = row.getSizeInBytes();
      if (used > 0 && used + 4 + size > blockSize) {
        flush();
      }
      if (block.length < used + 4 + size) {
        block = java.util.Arrays.copyOf(block, used + 4 + size); // one row larger than a block
      }
      Platform.putInt(block, Platform.BYTE_ARRAY_OFFSET + used, size);
      row.writeToMemory(block, Platform.BYTE_ARRAY_OFFSET + used + 4);
      used += 4 + size;
      blockRows++;
      totalRows++;
    }

    void finish() throws IOException {
      flush();
      out.writeInt(0);
      out.writeInt(0);
      out.writeInt(0);
      out.writeLong(totalRows);
      bytes += HEADER_BYTES + 8;
    }

    private void flush() throws IOException {
      if (used == 0) {
        return;
      }
      crc.reset();
      crc.update(block, 0, used);
      out.writeInt(used);
      out.writeInt(blockRows);
      out.writeInt((int) crc.getValue());
      out.write(block, 0, used);
      bytes += HEADER_BYTES + used;
      used = 0;
      blockRows = 0;
    }
  }

  /** Reads block by block, checking each block before any of its rows is returned. */
  private final class BlockReader implements CloseableIterator<InternalRow> {
    private final DataInputStream in;
    private final UnsafeRow row = new UnsafeRow(numFields);
    private final CRC32C crc = new CRC32C();
    private byte[] block = new byte[256];
    private int blockLength;
    private int blockRows;
    private int blockRowsRead;
    private int position;
    private int blockNumber = -1;
    private long blockOffset;
    private long offset;
    private long rowsRead;
    private boolean ready;
    private boolean done;

    BlockReader(DataInputStream in) {
      this.in = in;
    }

    @Override
    public boolean hasNext() {
      if (ready || done) {
        return ready;
      }
      try {
        if (position == blockLength && blockRowsRead != blockRows) {
          throw corrupt(
              String.format(
                  "the header counts %d rows, the block holds %d", blockRows, blockRowsRead));
        }
        if (position == blockLength && !readBlock()) {
          done = true;
          return false;
        }
        int size = Platform.getInt(block, Platform.BYTE_ARRAY_OFFSET + position);
        if (size < 0 || size > blockLength - position - 4) {
          throw corrupt("a row of " + size + " bytes does not fit its block");
        }
        row.pointTo(block, Platform.BYTE_ARRAY_OFFSET + position + 4, size);
        position += 4 + size;
        blockRowsRead++;
        rowsRead++;
        ready = true;
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read spill file " + path, e);
      }
    }

    /** Reads and checks the next block; false at the end marker. */
    private boolean readBlock() throws IOException {
      blockNumber++;
      blockOffset = offset;
      int length = readInt();
      int count = readInt();
      int checksum = readInt();
      if (length == 0 && count == 0 && checksum == 0) {
        long total = readLong();
        if (total != rowsRead || total != rows) {
          throw corrupt(
              String.format(
                  "the end marker counts %d rows, but %d were read and %d written",
                  total, rowsRead, rows));
        }
        return false;
      }
      if (length <= 0 || count <= 0 || length > bytes - offset) {
        throw corrupt(String.format("invalid block header (length %d, rows %d)", length, count));
      }
      if (block.length < length) {
        block = new byte[Math.max(length, block.length * 2)];
      }
      try {
        in.readFully(block, 0, length);
      } catch (EOFException e) {
        throw truncated();
      }
      offset += length;
      crc.reset();
      crc.update(block, 0, length);
      if ((int) crc.getValue() != checksum) {
        throw corrupt(
            String.format(
                "checksum mismatch (CRC32C %08x, expected %08x)", (int) crc.getValue(), checksum));
      }
      blockLength = length;
      blockRows = count;
      blockRowsRead = 0;
      position = 0;
      return true;
    }

    private int readInt() throws IOException {
      try {
        int value = in.readInt();
        offset += 4;
        return value;
      } catch (EOFException e) {
        throw truncated();
      }
    }

    private long readLong() throws IOException {
      try {
        long value = in.readLong();
        offset += 8;
        return value;
      } catch (EOFException e) {
        throw truncated();
      }
    }

    private BasaltException truncated() {
      return new BasaltException(
          String.format(
              "Spill file %s is truncated: it ends in block %d (at byte %d) after %d of %d rows,"
                  + " before its end marker; no rows are dropped, so the task fails. Check free"
                  + " space in Spark's local directories (spark.local.dir); a retry of the task"
                  + " writes the spill again.",
              path, blockNumber, blockOffset, rowsRead, rows));
    }

    private BasaltException corrupt(String what) {
      return new BasaltException(
          String.format(
              "Spill file %s is corrupt: block %d (at byte %d): %s; no rows are dropped, so the"
                  + " task fails. Check the local disk of Spark's local directories"
                  + " (spark.local.dir); a retry of the task writes the spill again.",
              path, blockNumber, blockOffset, what));
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = false;
      return row;
    }

    @Override
    public void close() {
      CloseableIterator.closeQuietlyUnchecked(in, "spill file " + path);
    }
  }
}

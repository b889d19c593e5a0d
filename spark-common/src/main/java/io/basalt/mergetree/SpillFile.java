package io.basalt.mergetree;

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
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * A sorted run of the write buffer spilled to local disk: length-prefixed UnsafeRow bytes, read
 * back as one stream. Lives only until its bucket writer flushes; never part of a table.
 */
final class SpillFile {
  private final Path path;
  private final int numFields;
  private final long bytes;

  private SpillFile(Path path, int numFields, long bytes) {
    this.path = path;
    this.numFields = numFields;
    this.bytes = bytes;
  }

  /**
   * Writes {@code rows} (in order, serialized by {@code toUnsafe}) to a new file in {@code dir}.
   */
  static SpillFile write(
      Path dir, int numFields, Iterator<InternalRow> rows, UnsafeProjection toUnsafe) {
    Path path;
    try {
      Files.createDirectories(dir);
      path = Files.createTempFile(dir, "basalt-spill-", ".bin");
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create a spill file in " + dir, e);
    }
    long bytes = 0;
    byte[] buffer = new byte[4096];
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16))) {
      while (rows.hasNext()) {
        InternalRow next = rows.next();
        UnsafeRow row = next instanceof UnsafeRow unsafe ? unsafe : toUnsafe.apply(next);
        out.writeInt(row.getSizeInBytes());
        row.writeToStream(out, buffer);
        bytes += 4 + row.getSizeInBytes();
      }
    } catch (IOException e) {
      delete(path);
      throw new UncheckedIOException("Failed to spill the write buffer to " + path, e);
    }
    return new SpillFile(path, numFields, bytes);
  }

  long bytes() {
    return bytes;
  }

  /** The rows again, in written order; the returned row is reused between calls. */
  CloseableIterator<InternalRow> read() {
    DataInputStream in;
    try {
      in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open spill file " + path, e);
    }
    return new CloseableIterator<>() {
      private final UnsafeRow row = new UnsafeRow(numFields);
      private byte[] data = new byte[256];
      private boolean ready;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (ready || done) {
          return ready;
        }
        try {
          int size = in.readInt();
          if (data.length < size) {
            data = new byte[Math.max(size, data.length * 2)];
          }
          in.readFully(data, 0, size);
          row.pointTo(data, Platform.BYTE_ARRAY_OFFSET, size);
          ready = true;
        } catch (EOFException e) {
          done = true; // the writer ends the file after the last row: a clean end
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to read spill file " + path, e);
        }
        return ready;
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
        try {
          in.close();
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to close spill file " + path, e);
        }
      }
    };
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
}

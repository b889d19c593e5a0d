package io.basalt.index;

import io.basalt.fs.FileIO;
import io.basalt.utils.Check;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.PrimitiveIterator;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.Path;

/**
 * Writes and reads HASH index files (format-notes.md section 7.2): the key hashes of one dynamic
 * bucket as big-endian 32-bit ints, with no header. Thread-safe if its {@link FileIO} is.
 */
public final class HashIndexFile {
  private final FileIO fileIO;
  private final IndexFilePaths paths;

  public HashIndexFile(FileIO fileIO, IndexFilePaths paths) {
    this.fileIO = Check.notNull(fileIO, "fileIO");
    this.paths = Check.notNull(paths, "paths");
  }

  /**
   * Writes a new index file holding the hashes of {@code previous} (null: none) followed by {@code
   * added}, streaming the previous file rather than loading it.
   *
   * @throws UncheckedIOException if reading or writing fails; the new file is then deleted
   */
  public IndexFileMeta write(IndexFileMeta previous, PrimitiveIterator.OfInt added) {
    String name = paths.newFileName();
    Path path = paths.toPath(name);
    long count = 0;
    try {
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(fileIO.create(path, false)))) {
        if (previous != null) {
          count += forEach(previous, hash -> writeInt(out, hash));
        }
        while (added.hasNext()) {
          out.writeInt(added.nextInt());
          count++;
        }
      }
      return new IndexFileMeta(IndexFileMeta.HASH, name, fileIO.size(path), count, null, null);
    } catch (IOException | RuntimeException e) {
      fileIO.delete(path, false);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("Failed to write hash index file " + path, io);
      }
      throw (RuntimeException) e;
    }
  }

  private static void writeInt(DataOutputStream out, int value) {
    try {
      out.writeInt(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Streams every hash of {@code file} to {@code consumer} in file order.
   *
   * @return the number of hashes read
   * @throws UncheckedIOException if the file cannot be read or its size is not a multiple of 4
   */
  public long forEach(IndexFileMeta file, IntConsumer consumer) {
    Check.argument(
        IndexFileMeta.HASH.equals(file.indexType()),
        "Index file %s is a %s index, not a %s index",
        file.fileName(),
        file.indexType(),
        IndexFileMeta.HASH);
    Path path = paths.toPath(file);
    long count = 0;
    try (InputStream raw = fileIO.open(path);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
      while (true) {
        int first = in.read();
        if (first < 0) {
          return count;
        }
        int rest;
        try {
          rest =
              (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        } catch (EOFException e) {
          throw new UncheckedIOException(
              "Hash index file " + path + " is truncated: its size is not a multiple of 4", e);
        }
        consumer.accept((first << 24) | rest);
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read hash index file " + path, e);
    }
  }
}

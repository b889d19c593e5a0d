package io.basalt.deletionvectors;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.utils.Check;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Writes and reads deletion vector index files (format-notes.md section 8): a version byte, then
 * one block per data file (see {@link DeletionVectorCodec}). Thread-safe if its {@link FileIO} is.
 */
public final class DeletionVectorIndexFile {
  /** The version byte that starts every deletion vector index file. */
  public static final byte VERSION = 1;

  /** Default of the table option {@code deletion-vector.index-file.target-size}: 2 MB. */
  public static final long DEFAULT_TARGET_SIZE = 2L * 1024 * 1024;

  private final FileIO fileIO;
  private final IndexFilePaths paths;
  private final long targetSize;

  /**
   * @param targetSize the size at which a file rolls over to the next ({@code
   *     deletion-vector.index-file.target-size}); a file always holds at least one vector
   */
  public DeletionVectorIndexFile(FileIO fileIO, IndexFilePaths paths, long targetSize) {
    this.fileIO = Check.notNull(fileIO, "fileIO");
    this.paths = Check.notNull(paths, "paths");
    Check.argument(targetSize > 0, "Invalid deletion vector index file target size %s", targetSize);
    this.targetSize = targetSize;
  }

  /**
   * Writes {@code vectors} (keyed by data file name) in their iteration order into new index files,
   * starting a new file once one has grown past the target size. With no vectors it writes one file
   * holding only the version byte, which an index manifest uses to clear a bucket's vectors.
   *
   * @return the files written, each with the range of every vector it holds
   * @throws UncheckedIOException if writing fails; the files this call wrote are deleted
   */
  public List<IndexFileMeta> write(Map<String, DeletionVector> vectors) {
    return write(vectors, targetSize);
  }

  /**
   * Writes {@code vectors} in their iteration order into one new index file, whatever its size: the
   * form bucketed tables use, which keep one deletion vector file per bucket.
   *
   * @throws UncheckedIOException if writing fails; the file is deleted
   * @throws IllegalStateException if the file would pass 2 GB
   */
  public IndexFileMeta writeSingleFile(Map<String, DeletionVector> vectors) {
    return write(vectors, Long.MAX_VALUE).get(0);
  }

  private List<IndexFileMeta> write(Map<String, DeletionVector> vectors, long rollSize) {
    Check.notNull(vectors, "vectors");
    List<IndexFileMeta> written = new ArrayList<>();
    Iterator<Map.Entry<String, DeletionVector>> remaining = vectors.entrySet().iterator();
    try {
      do {
        written.add(writeOne(remaining, rollSize));
      } while (remaining.hasNext());
    } catch (IOException | RuntimeException e) {
      for (IndexFileMeta file : written) {
        deleteAfterFailure(paths.toPath(file), e);
      }
      throw e instanceof IOException io
          ? new UncheckedIOException("Failed to write deletion vector index files", io)
          : (RuntimeException) e;
    }
    return written;
  }

  private IndexFileMeta writeOne(
      Iterator<Map.Entry<String, DeletionVector>> remaining, long rollSize) throws IOException {
    String fileName = paths.newFileName();
    Path path = paths.toPath(fileName);
    Map<String, DeletionVectorMeta> ranges = new LinkedHashMap<>();
    long position = 0;
    try (OutputStream out = fileIO.create(path, false)) {
      out.write(VERSION);
      position++;
      while (remaining.hasNext() && position <= rollSize) {
        Map.Entry<String, DeletionVector> entry = remaining.next();
        byte[] block = DeletionVectorCodec.serialize(entry.getValue());
        Check.state(
            position + block.length <= Integer.MAX_VALUE,
            "Deletion vector index file %s would pass 2 GB, which its int offsets cannot address",
            fileName);
        DeletionVectorMeta range =
            new DeletionVectorMeta(
                entry.getKey(),
                (int) position,
                DeletionVectorCodec.rangeLength(entry.getValue(), block),
                entry.getValue().cardinality());
        ranges.put(entry.getKey(), range);
        out.write(block);
        position += block.length;
      }
    } catch (IOException | RuntimeException e) {
      deleteAfterFailure(path, e);
      throw e;
    }
    return IndexFileMeta.deletionVectors(fileName, position, ranges);
  }

  private void deleteAfterFailure(Path path, Exception failure) {
    try {
      fileIO.delete(path, false);
    } catch (RuntimeException suppressed) {
      failure.addSuppressed(suppressed);
    }
  }

  /**
   * Reads the vector of one data file from index file {@code indexFileName} in {@code index/},
   * seeking to its range.
   *
   * @throws BasaltException if the file is not a deletion vector index file, or the block is
   *     truncated, malformed or fails its CRC; the message names both files
   * @throws UncheckedIOException if the file cannot be opened
   */
  public DeletionVector read(String indexFileName, DeletionVectorMeta range) {
    return read(paths.toPath(indexFileName), range);
  }

  /** Like {@link #read(String, DeletionVectorMeta)} for an index file at {@code indexFile}. */
  public DeletionVector read(Path indexFile, DeletionVectorMeta range) {
    Check.notNull(range, "range");
    return readAll(indexFile, List.of(range)).get(range.dataFileName());
  }

  /**
   * Reads every vector of {@code file} listed in its ranges, keyed by data file name in range
   * order.
   *
   * @throws BasaltException as {@link #read(String, DeletionVectorMeta)}
   * @throws IllegalArgumentException if {@code file} is not a deletion vector file
   */
  public Map<String, DeletionVector> readAll(IndexFileMeta file) {
    Check.argument(
        IndexFileMeta.DELETION_VECTORS.equals(file.indexType()) && file.dvRanges() != null,
        "Index file %s of type %s holds no deletion vectors",
        file.fileName(),
        file.indexType());
    return readAll(paths.toPath(file), file.dvRanges().values());
  }

  /**
   * Reads the vectors at {@code ranges} of the index file at {@code indexFile}, opening it once.
   */
  public Map<String, DeletionVector> readAll(
      Path indexFile, Collection<DeletionVectorMeta> ranges) {
    Check.notNull(indexFile, "indexFile");
    Map<String, DeletionVector> vectors = new LinkedHashMap<>();
    try (FSDataInputStream in = fileIO.fileSystem(indexFile).open(indexFile)) {
      checkVersion(in, indexFile);
      for (DeletionVectorMeta range : ranges) {
        vectors.put(range.dataFileName(), readBlock(in, indexFile, range));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read deletion vector index file " + indexFile, e);
    }
    return vectors;
  }

  private static void checkVersion(FSDataInputStream in, Path indexFile) throws IOException {
    int version = in.read();
    if (version != VERSION) {
      String found = version < 0 ? "it is empty" : "it starts with version byte " + version;
      throw new BasaltException(
          String.format(
              "Failed to read deletion vector index file %s: %s, expected %s",
              indexFile, found, VERSION));
    }
  }

  private static DeletionVector readBlock(
      FSDataInputStream in, Path indexFile, DeletionVectorMeta range) throws IOException {
    String source =
        String.format(
            "data file %s in index file %s at offset %s",
            range.dataFileName(), indexFile, range.offset());
    byte[] header = new byte[DeletionVectorCodec.HEADER_BYTES];
    seek(in, range.offset(), source);
    readFully(in, header, 0, source);
    ByteBuffer buffer = ByteBuffer.wrap(header);
    int blockLength =
        DeletionVectorCodec.blockLength(buffer.getInt(0), buffer.getInt(4), range.length(), source);
    byte[] block = new byte[blockLength];
    System.arraycopy(header, 0, block, 0, header.length);
    readFully(in, block, header.length, source);
    return DeletionVectorCodec.deserialize(block, source);
  }

  private static void seek(FSDataInputStream in, long offset, String source) throws IOException {
    try {
      in.seek(offset);
    } catch (EOFException e) {
      throw truncated(source, "the offset is beyond the end of the file", e);
    }
  }

  private static void readFully(FSDataInputStream in, byte[] into, int from, String source)
      throws IOException {
    try {
      in.readFully(into, from, into.length - from);
    } catch (EOFException e) {
      throw truncated(
          source, "the file ends inside the block of " + into.length + " bytes (truncated)", e);
    }
  }

  private static BasaltException truncated(String source, String reason, EOFException cause) {
    BasaltException failure = DeletionVectorCodec.corrupt(source, reason);
    failure.initCause(cause);
    return failure;
  }
}

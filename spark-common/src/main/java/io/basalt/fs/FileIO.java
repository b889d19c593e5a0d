package io.basalt.fs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file operations a table needs. {@link HadoopFileIO} is the production implementation over any
 * Hadoop file system; {@link InMemoryFileIO} keeps files in memory for fast, deterministic engine
 * tests. Serializable, so Spark tasks can carry it to executors.
 *
 * <p>{@link #tryCreateAtomically} is the one primitive commits rely on: every snapshot is published
 * through it.
 */
public interface FileIO extends Serializable {

  /** A FileIO over a default Hadoop configuration (tests, tools). */
  static FileIO local() {
    return new HadoopFileIO(new Configuration());
  }

  /** A FileIO over the file systems of {@code conf} (the session's Hadoop configuration). */
  static FileIO hadoop(Configuration conf) {
    return new HadoopFileIO(conf);
  }

  /**
   * The Hadoop configuration, also handed to Parquet; callers must not modify it. Implementations
   * that are not backed by Hadoop refuse it.
   */
  Configuration conf();

  /** The Hadoop file system of {@code path}; implementations not backed by Hadoop refuse it. */
  FileSystem fileSystem(Path path);

  boolean exists(Path path);

  InputStream open(Path path) throws IOException;

  /** Creates {@code path}, failing if it exists unless {@code overwrite}. */
  OutputStream create(Path path, boolean overwrite) throws IOException;

  long size(Path path);

  /** The entries of directory {@code dir}, or none when it does not exist. */
  List<FileStatus> list(Path dir);

  void mkdirs(Path dir);

  /** Deletes {@code path}; returns false when it did not exist. */
  boolean delete(Path path, boolean recursive);

  /**
   * Renames {@code from} to {@code to}; returns false when {@code to} exists or the move failed.
   */
  boolean rename(Path from, Path to) throws IOException;

  /** Reads a whole small file (metadata JSON) as UTF-8. */
  default String readUtf8(Path path) throws IOException {
    try (InputStream in = open(path)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  /** Writes a small file, replacing it: for best-effort hints such as {@code LATEST}. */
  void overwriteUtf8(Path path, String content) throws IOException;

  /**
   * Creates {@code path} with {@code content} only if it does not exist, atomically with respect to
   * other processes doing the same: exactly one of several racing creators gets {@code true}, and a
   * reader never sees a partial file.
   */
  boolean tryCreateAtomically(Path path, String content) throws IOException;

  /**
   * Which primitive makes {@link #tryCreateAtomically} atomic in directory {@code dir}. {@link
   * AtomicCreate#NONE} means it is not atomic there: {@link #tryCreateAtomically} then refuses, and
   * callers that serialise their creates themselves (a commit lock, a single writer) use {@link
   * #createIfAbsent}. Implementations whose creates are atomic everywhere keep this default.
   */
  default AtomicCreate atomicCreate(Path dir) {
    return AtomicCreate.NATIVE;
  }

  /**
   * Creates {@code path} with {@code content} unless it exists, <em>without</em> atomicity: two
   * callers racing can both see it absent. Only for callers that hold a commit lock or are the only
   * writer. Readers still never see a partial file where the store publishes a file on close.
   */
  default boolean createIfAbsent(Path path, String content) throws IOException {
    if (exists(path)) {
      return false;
    }
    try (OutputStream out = create(path, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    return true;
  }
}

package io.basalt.fs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Files in memory, for engine tests that need many fast, deterministic commits (the multi-writer
 * model checker, fault injection). Metadata operations behave as on a local file system: a file
 * exists from {@link #create} on and grows as bytes are written; {@link #tryCreateAtomically} and
 * {@link #rename} are atomic and never replace an existing file. Thread-safe.
 *
 * <p>Data files cannot be written here: Parquet needs a Hadoop file system, so {@link #conf} and
 * {@link #fileSystem} are refused. A serialized copy holds a copy of the files, not a view.
 */
public final class InMemoryFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  /** Files by path (no scheme), sorted so a directory's entries are one range. */
  private final TreeMap<String, ByteArrayOutputStream> files = new TreeMap<>();

  private final TreeSet<String> dirs = new TreeSet<>();

  private static String key(Path path) {
    return path.toUri().getPath();
  }

  @Override
  public Configuration conf() {
    throw new UnsupportedOperationException(
        "InMemoryFileIO has no Hadoop configuration: it holds table metadata only. Fix: use"
            + " FileIO.local() for tests that write or read data files.");
  }

  @Override
  public FileSystem fileSystem(Path path) {
    throw new UnsupportedOperationException(
        "InMemoryFileIO has no Hadoop file system for "
            + path
            + ". Fix: use FileIO.local() for tests that need one.");
  }

  @Override
  public synchronized boolean exists(Path path) {
    String key = key(path);
    return files.containsKey(key) || isDir(key);
  }

  private boolean isDir(String key) {
    String prefix = key.endsWith("/") ? key : key + "/";
    String next = files.ceilingKey(prefix);
    return dirs.contains(key) || (next != null && next.startsWith(prefix));
  }

  @Override
  public synchronized InputStream open(Path path) throws IOException {
    ByteArrayOutputStream file = files.get(key(path));
    if (file == null) {
      throw new FileNotFoundException("File " + path + " does not exist");
    }
    return new ByteArrayInputStream(file.toByteArray());
  }

  @Override
  public synchronized OutputStream create(Path path, boolean overwrite) throws IOException {
    String key = key(path);
    if (!overwrite && files.containsKey(key)) {
      throw new FileAlreadyExistsException("File " + path + " already exists");
    }
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    files.put(key, file);
    return new OutputStream() {
      @Override
      public void write(int b) {
        synchronized (InMemoryFileIO.this) {
          file.write(b);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) {
        synchronized (InMemoryFileIO.this) {
          file.write(b, off, len);
        }
      }
    };
  }

  @Override
  public synchronized long size(Path path) {
    ByteArrayOutputStream file = files.get(key(path));
    if (file == null) {
      throw new IllegalArgumentException("File " + path + " does not exist");
    }
    return file.size();
  }

  @Override
  public synchronized List<FileStatus> list(Path dir) {
    String prefix = key(dir).endsWith("/") ? key(dir) : key(dir) + "/";
    List<FileStatus> result = new ArrayList<>();
    String lastDir = null;
    NavigableMap<String, ByteArrayOutputStream> range = files.tailMap(prefix, true);
    for (Map.Entry<String, ByteArrayOutputStream> entry : range.entrySet()) {
      String name = entry.getKey();
      if (!name.startsWith(prefix)) {
        break;
      }
      String rest = name.substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        result.add(status(new Path(dir, rest), entry.getValue().size(), false));
      } else if (!rest.substring(0, slash).equals(lastDir)) {
        lastDir = rest.substring(0, slash);
        result.add(status(new Path(dir, lastDir), 0, true));
      }
    }
    return result;
  }

  private static FileStatus status(Path path, long length, boolean dir) {
    return new FileStatus(length, dir, 1, 0, 0, path);
  }

  @Override
  public synchronized void mkdirs(Path dir) {
    dirs.add(key(dir));
  }

  @Override
  public synchronized boolean delete(Path path, boolean recursive) {
    String key = key(path);
    if (files.remove(key) != null) {
      return true;
    }
    if (!isDir(key)) {
      return false;
    }
    String prefix = key + "/";
    if (!recursive
        && files.ceilingKey(prefix) != null
        && files.ceilingKey(prefix).startsWith(prefix)) {
      throw new IllegalStateException("Directory " + path + " is not empty");
    }
    files.subMap(prefix, prefix + Character.MAX_VALUE).clear();
    dirs.subSet(key, true, prefix + Character.MAX_VALUE, true).clear();
    return true;
  }

  @Override
  public synchronized boolean rename(Path from, Path to) {
    String target = key(to);
    if (files.containsKey(target) || !files.containsKey(key(from))) {
      return false;
    }
    files.put(target, files.remove(key(from)));
    return true;
  }

  @Override
  public synchronized void overwriteUtf8(Path path, String content) {
    files.put(key(path), bytes(content));
  }

  @Override
  public synchronized boolean tryCreateAtomically(Path path, String content) {
    return files.putIfAbsent(key(path), bytes(content)) == null;
  }

  private static ByteArrayOutputStream bytes(String content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(content.getBytes(StandardCharsets.UTF_8));
    return out;
  }

  /** Every file's path, sorted (tests compare what a commit left behind). */
  public synchronized List<String> paths() {
    return new ArrayList<>(files.keySet());
  }
}

package io.basalt.fs;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * File access over Hadoop's FileSystem, so {@code file:}, {@code hdfs:} and {@code s3a:} paths all
 * work. Serializable, so Spark tasks can carry it to executors.
 *
 * <p>Local paths use Hadoop's raw local file system: no {@code .crc} sidecar files appear in the
 * table. {@link #tryCreateAtomically} is the one primitive commits rely on; see its Javadoc for
 * what each file system guarantees.
 */
public final class HadoopFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  private transient Configuration conf;

  public HadoopFileIO(Configuration conf) {
    this.conf = withRawLocal(new Configuration(conf));
  }

  private static Configuration withRawLocal(Configuration conf) {
    conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }

  @Override
  public Configuration conf() {
    return conf;
  }

  @Override
  public FileSystem fileSystem(Path path) {
    try {
      return path.getFileSystem(conf);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to access the file system of " + path, e);
    }
  }

  @Override
  public boolean exists(Path path) {
    try {
      return fileSystem(path).exists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to check whether " + path + " exists", e);
    }
  }

  @Override
  public InputStream open(Path path) throws IOException {
    return fileSystem(path).open(path);
  }

  /** Creates {@code path}, failing if it exists unless {@code overwrite}. */
  @Override
  public OutputStream create(Path path, boolean overwrite) throws IOException {
    return fileSystem(path).create(path, overwrite);
  }

  @Override
  public boolean rename(Path from, Path to) throws IOException {
    FileSystem fs = fileSystem(to);
    if (fs.exists(to)) {
      return false;
    }
    return fs.rename(from, to);
  }

  @Override
  public long size(Path path) {
    try {
      return fileSystem(path).getFileStatus(path).getLen();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read the size of " + path, e);
    }
  }

  /** The entries of directory {@code dir}, or none when it does not exist. */
  @Override
  public List<FileStatus> list(Path dir) {
    try {
      FileSystem fs = fileSystem(dir);
      if (!fs.exists(dir)) {
        return List.of();
      }
      return Arrays.asList(fs.listStatus(dir));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + dir, e);
    }
  }

  @Override
  public void mkdirs(Path dir) {
    try {
      fileSystem(dir).mkdirs(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create directory " + dir, e);
    }
  }

  /** Deletes {@code path}; returns false when it did not exist. */
  @Override
  public boolean delete(Path path, boolean recursive) {
    try {
      return fileSystem(path).delete(path, recursive);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete " + path, e);
    }
  }

  /** Writes a small file, replacing it: for best-effort hints such as {@code LATEST}. */
  @Override
  public void overwriteUtf8(Path path, String content) throws IOException {
    Path tmp = tempSibling(path);
    try (OutputStream out = create(tmp, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    FileSystem fs = fileSystem(path);
    fs.delete(path, false);
    if (!fs.rename(tmp, path)) {
      fs.delete(tmp, false);
    }
  }

  /**
   * Creates {@code path} with {@code content} only if it does not exist, atomically with respect to
   * other processes doing the same: exactly one of several racing creators gets {@code true}, and a
   * reader never sees a partial file.
   *
   * <p>The content goes to a temporary sibling first. On the local file system it is then
   * hard-linked to the target, which fails if the target exists (a plain rename would silently
   * replace it). On HDFS a rename fails if the target exists. Object stores have no atomic rename:
   * there only one writer at a time is safe (docs/format.md).
   */
  @Override
  public boolean tryCreateAtomically(Path path, String content) throws IOException {
    if (exists(path)) {
      return false;
    }
    Path tmp = tempSibling(path);
    try (OutputStream out = create(tmp, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    try {
      return publish(tmp, path);
    } finally {
      fileSystem(tmp).delete(tmp, false);
    }
  }

  private boolean publish(Path tmp, Path target) throws IOException {
    FileSystem fs = fileSystem(target);
    if ("file".equals(fs.getUri().getScheme())) {
      try {
        Files.createLink(
            Paths.get(fs.makeQualified(target).toUri()), Paths.get(fs.makeQualified(tmp).toUri()));
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      }
    }
    return fs.rename(tmp, target);
  }

  private static Path tempSibling(Path path) {
    return new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    Configuration restored = new Configuration(false);
    restored.readFields(in);
    conf = withRawLocal(restored);
  }
}

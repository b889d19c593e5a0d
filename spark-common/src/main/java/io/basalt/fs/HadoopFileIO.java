package io.basalt.fs;

import io.basalt.BasaltException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * File access over Hadoop's FileSystem, so {@code file:}, {@code hdfs:} and {@code s3a:} paths all
 * work. Serializable, so Spark tasks can carry it to executors.
 *
 * <p>Local paths use Hadoop's local file system with checksums off ({@link
 * ChecksumFreeLocalFileSystem}): no {@code .crc} sidecar files appear in the table. {@link
 * #tryCreateAtomically} is the one primitive commits rely on; see its Javadoc for what each file
 * system guarantees.
 */
public final class HadoopFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  private transient Configuration conf;

  /** The probed primitive per file system URI; rebuilt lazily after deserialisation. */
  private transient volatile Map<String, AtomicCreate> primitives;

  /**
   * This FileIO's local file systems by URI: Hadoop's cache is off for {@code file:} (see {@link
   * #withChecksumFreeLocal}), so without this every call would build and initialise a new one.
   */
  private transient volatile Map<String, FileSystem> localFileSystems;

  /** {@link #conf} as written into a task, encoded on first use (the conf never changes). */
  private transient volatile byte[] encodedConf;

  public HadoopFileIO(Configuration conf) {
    this.conf = withChecksumFreeLocal(new Configuration(conf));
  }

  private static Configuration withChecksumFreeLocal(Configuration conf) {
    conf.set("fs.file.impl", ChecksumFreeLocalFileSystem.class.getName());
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
      java.net.URI uri = path.toUri();
      if (!"file".equals(uri.getScheme())) {
        return path.getFileSystem(conf); // Hadoop's own cache serves these
      }
      Map<String, FileSystem> local = localFileSystems;
      if (local == null) {
        synchronized (this) {
          if (localFileSystems == null) {
            localFileSystems = new ConcurrentHashMap<>();
          }
          local = localFileSystems;
        }
      }
      String key = uri.getAuthority() == null ? "" : uri.getAuthority();
      FileSystem fs = local.get(key);
      if (fs == null) {
        fs = path.getFileSystem(conf);
        FileSystem raced = local.putIfAbsent(key, fs);
        fs = raced != null ? raced : fs;
      }
      return fs;
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
    if (!isRenameStore(path.getParent())) {
      // object stores publish a PUT whole on close, and their rename is a copy: write in place
      try (OutputStream out = create(path, true)) {
        out.write(content.getBytes(StandardCharsets.UTF_8));
      }
      return;
    }
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
   * <p>On the local file system and HDFS the content goes to a temporary sibling first, which is
   * then hard-linked (local) or renamed (HDFS) to the target; both fail if the target exists (a
   * local rename would silently replace it). On S3A the content goes up in one conditional PUT that
   * the store refuses when the key exists. Other stores have no such primitive.
   *
   * @throws BasaltException on a store without one ({@link #atomicCreate} is {@link
   *     AtomicCreate#NONE}): the caller must hold a commit lock and use {@link #createIfAbsent}
   */
  @Override
  public boolean tryCreateAtomically(Path path, String content) throws IOException {
    AtomicCreate primitive = atomicCreate(path.getParent());
    if (primitive == AtomicCreate.NONE) {
      throw new BasaltException(
          String.format(
              "Cannot create %s atomically: file system %s has no create-if-absent primitive"
                  + " Basalt trusts. Fix: enable a commit lock or single-writer mode (see"
                  + " docs/object-stores.md).",
              path, fileSystem(path).getUri()));
    }
    if (exists(path)) {
      return false;
    }
    if (primitive == AtomicCreate.CONDITIONAL_PUT) {
      return StorePrimitives.conditionalPut(fileSystem(path), path, content);
    }
    Path tmp = tempSibling(path);
    try (OutputStream out = create(tmp, false)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    try {
      FileSystem fs = fileSystem(path);
      return primitive == AtomicCreate.LINK
          ? StorePrimitives.link(fs, tmp, path)
          : fs.rename(tmp, path);
    } finally {
      fileSystem(tmp).delete(tmp, false);
    }
  }

  /** The store's primitive, probed once per file system (scheme and authority). */
  @Override
  public AtomicCreate atomicCreate(Path dir) {
    FileSystem fs = fileSystem(dir);
    String key = fs.getUri().toString();
    Map<String, AtomicCreate> cache = primitives;
    if (cache == null) {
      cache = new ConcurrentHashMap<>();
      primitives = cache;
    }
    AtomicCreate known = cache.get(key);
    if (known != null) {
      return known;
    }
    try {
      AtomicCreate probed = StorePrimitives.probe(fs, dir);
      cache.put(key, probed);
      return probed;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to probe the file system capabilities of " + dir, e);
    }
  }

  private boolean isRenameStore(Path dir) {
    AtomicCreate primitive = atomicCreate(dir);
    return primitive == AtomicCreate.LINK || primitive == AtomicCreate.RENAME;
  }

  private static Path tempSibling(Path path) {
    return new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    byte[] encoded = encodedConf;
    if (encoded == null) {
      // a Spark query serialises this once per stage: encoding the ~1,000 entries each time
      // showed up in the driver's profile of a point lookup
      encoded = SharedConfs.encode(conf);
      encodedConf = encoded;
    }
    out.writeInt(encoded.length);
    out.write(encoded);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    byte[] encoded = new byte[in.readInt()];
    in.readFully(encoded);
    conf = SharedConfs.decode(encoded, decoded -> withChecksumFreeLocal(decoded));
    encodedConf = encoded;
  }
}

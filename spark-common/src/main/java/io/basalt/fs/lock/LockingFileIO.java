package io.basalt.fs.lock;

import io.basalt.BasaltException;
import io.basalt.fs.AtomicCreate;
import io.basalt.fs.FileIO;
import io.basalt.options.LockOptions;
import io.basalt.options.Options;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A table's view of its FileIO that makes {@link #tryCreateAtomically} safe on every store. Where
 * the store has an atomic create-if-absent it is used as is. Where it has none, the create runs
 * under the table's commit lock ({@code lock.enabled}) or, if the user promised a single writer
 * ({@code commit.single-writer}), as a plain check and write; with neither, it is refused with a
 * message naming both fixes, before anything is published.
 *
 * <p>Every other operation goes straight to the wrapped FileIO. The options are read only when a
 * store without the primitive is met, so tables on local disks, HDFS and S3A pay nothing.
 */
public final class LockingFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  private final FileIO delegate;
  private final Map<String, String> options;
  private final Path tableRoot;
  private final String tableName;

  private LockingFileIO(
      FileIO delegate, Map<String, String> options, Path tableRoot, String tableName) {
    this.delegate = delegate;
    this.options = Map.copyOf(options);
    this.tableRoot = tableRoot;
    this.tableName = tableName;
  }

  /** {@code fileIO} for the table at {@code tableRoot} with {@code options} (unwrapped first). */
  public static FileIO wrap(
      FileIO fileIO, Map<String, String> options, Path tableRoot, String tableName) {
    FileIO base = fileIO instanceof LockingFileIO locking ? locking.delegate : fileIO;
    return new LockingFileIO(base, options, tableRoot, tableName);
  }

  @Override
  public boolean tryCreateAtomically(Path path, String content) throws IOException {
    AtomicCreate primitive = delegate.atomicCreate(path.getParent());
    if (primitive.isAtomic()) {
      return delegate.tryCreateAtomically(path, content);
    }
    Options table = new Options(options, "table " + tableName);
    Optional<CommitLock> lock = LockFactory.create(table, delegate, tableRoot, tableName);
    if (lock.isPresent()) {
      return lock.get().runWithLock(() -> delegate.createIfAbsent(path, content));
    }
    if (table.get(LockOptions.COMMIT_SINGLE_WRITER)) {
      return delegate.createIfAbsent(path, content);
    }
    throw new BasaltException(
        String.format(
            "Cannot commit to table %s: its store %s has no atomic create-if-absent, so two"
                + " writers could both publish %s and one would silently replace the other."
                + " Fix: enable a commit lock ('%s'='true' with '%s' on hdfs:, a shared local"
                + " path or s3a: with conditional writes), or, if only one writer ever commits"
                + " to this table, set '%s'='true' (as TBLPROPERTIES or spark.paimon.<key>).",
            tableName,
            storeOf(path),
            path.getName(),
            LockOptions.LOCK_ENABLED.key(),
            LockOptions.LOCK_FILE_DIR.key(),
            LockOptions.COMMIT_SINGLE_WRITER.key()));
  }

  private static String storeOf(Path path) {
    java.net.URI uri = path.toUri();
    String scheme = uri.getScheme() == null ? "(no scheme)" : uri.getScheme();
    return uri.getAuthority() == null ? scheme + ":" : scheme + "://" + uri.getAuthority();
  }

  @Override
  public AtomicCreate atomicCreate(Path dir) {
    return delegate.atomicCreate(dir);
  }

  @Override
  public boolean createIfAbsent(Path path, String content) throws IOException {
    return delegate.createIfAbsent(path, content);
  }

  @Override
  public Configuration conf() {
    return delegate.conf();
  }

  @Override
  public FileSystem fileSystem(Path path) {
    return delegate.fileSystem(path);
  }

  @Override
  public boolean exists(Path path) {
    return delegate.exists(path);
  }

  @Override
  public InputStream open(Path path) throws IOException {
    return delegate.open(path);
  }

  @Override
  public OutputStream create(Path path, boolean overwrite) throws IOException {
    return delegate.create(path, overwrite);
  }

  @Override
  public long size(Path path) {
    return delegate.size(path);
  }

  @Override
  public List<FileStatus> list(Path dir) {
    return delegate.list(dir);
  }

  @Override
  public void mkdirs(Path dir) {
    delegate.mkdirs(dir);
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    return delegate.delete(path, recursive);
  }

  @Override
  public boolean rename(Path from, Path to) throws IOException {
    return delegate.rename(from, to);
  }

  @Override
  public String readUtf8(Path path) throws IOException {
    return delegate.readUtf8(path);
  }

  @Override
  public void overwriteUtf8(Path path, String content) throws IOException {
    delegate.overwriteUtf8(path, content);
  }
}

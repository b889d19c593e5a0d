package io.basalt.fs;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Wraps a FileIO for tests: counts operations by kind, fails the N-th one of a kind (before it
 * happens, or after it happened so that its outcome looks unknown to the caller), and calls a hook
 * before each operation so a test can pause a writer there and let another one interleave.
 *
 * <p>Operations: CREATE ({@code create}, {@code tryCreateAtomically}, {@code overwriteUtf8}, {@code
 * mkdirs}), RENAME, DELETE, READ ({@code open}, {@code exists}, {@code list}, {@code size}). A
 * create that fails "after" writes all its bytes and then throws from {@code close}.
 */
public final class FaultInjectingFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  public enum Op {
    CREATE,
    RENAME,
    DELETE,
    READ
  }

  public enum Fault {
    /** The operation does not happen; an IOException is thrown. */
    FAIL_BEFORE,
    /** The operation happens, then an IOException is thrown: its outcome is unknown. */
    FAIL_AFTER
  }

  /** Called before each counted operation, with its kind, path and 1-based index of its kind. */
  public interface Hook {
    void before(Op op, Path path, int index);
  }

  private final FileIO delegate;
  private final Map<Op, Integer> counts = new EnumMap<>(Op.class);
  private Op failOp;
  private int failIndex;
  private Fault fault;
  private Predicate<Path> failOnly = p -> true;
  private int injected;
  private transient Hook hook;

  public FaultInjectingFileIO(FileIO delegate) {
    this.delegate = delegate;
  }

  /** Fails the {@code index}-th (1-based, counted from now) operation of kind {@code op}. */
  public synchronized FaultInjectingFileIO failAt(Op op, int index, Fault how) {
    counts.clear();
    this.failOp = op;
    this.failIndex = index;
    this.fault = how;
    this.failOnly = p -> true;
    return this;
  }

  /** Restricts the armed fault to paths matching {@code paths} (counting only those). */
  public synchronized FaultInjectingFileIO onlyPaths(Predicate<Path> paths) {
    this.failOnly = paths;
    return this;
  }

  /** Disarms the fault and resets the counters. */
  public synchronized void reset() {
    counts.clear();
    failOp = null;
  }

  public synchronized void setHook(Hook hook) {
    this.hook = hook;
  }

  /** How many operations of kind {@code op} ran since the last arm or reset. */
  public synchronized int count(Op op) {
    return counts.getOrDefault(op, 0);
  }

  /** How many faults were injected since this wrapper was made. */
  public synchronized int injected() {
    return injected;
  }

  /** Counts the operation; returns the fault to apply to it, or null. */
  private Fault enter(Op op, Path path) throws IOException {
    Hook current;
    Fault result = null;
    int index;
    synchronized (this) {
      boolean counted = failOp == null || failOp != op || failOnly.test(path);
      index = counted ? counts.merge(op, 1, Integer::sum) : -1;
      if (failOp == op && index == failIndex && failOnly.test(path)) {
        injected++;
        result = fault;
        failOp = null; // one fault per arming
      }
      current = hook;
    }
    if (current != null) {
      current.before(op, path, index);
    }
    if (result == Fault.FAIL_BEFORE) {
      throw new IOException("Injected failure before " + op + " of " + path);
    }
    return result;
  }

  private static IOException after(Op op, Path path) {
    return new IOException("Injected failure after " + op + " of " + path + " (it happened)");
  }

  private Fault enterUnchecked(Op op, Path path) {
    try {
      return enter(op, path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    Fault f = enterUnchecked(Op.READ, path);
    boolean result = delegate.exists(path);
    if (f != null) {
      throw new UncheckedIOException(after(Op.READ, path));
    }
    return result;
  }

  @Override
  public InputStream open(Path path) throws IOException {
    Fault f = enter(Op.READ, path);
    InputStream in = delegate.open(path);
    if (f != null) {
      in.close();
      throw after(Op.READ, path);
    }
    return in;
  }

  @Override
  public OutputStream create(Path path, boolean overwrite) throws IOException {
    Fault f = enter(Op.CREATE, path);
    OutputStream out = delegate.create(path, overwrite);
    if (f == null) {
      return out;
    }
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        super.close();
        throw after(Op.CREATE, path);
      }
    };
  }

  @Override
  public long size(Path path) {
    Fault f = enterUnchecked(Op.READ, path);
    long size = delegate.size(path);
    if (f != null) {
      throw new UncheckedIOException(after(Op.READ, path));
    }
    return size;
  }

  @Override
  public List<FileStatus> list(Path dir) {
    Fault f = enterUnchecked(Op.READ, dir);
    List<FileStatus> result = delegate.list(dir);
    if (f != null) {
      throw new UncheckedIOException(after(Op.READ, dir));
    }
    return result;
  }

  @Override
  public void mkdirs(Path dir) {
    Fault f = enterUnchecked(Op.CREATE, dir);
    delegate.mkdirs(dir);
    if (f != null) {
      throw new UncheckedIOException(after(Op.CREATE, dir));
    }
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    Fault f = enterUnchecked(Op.DELETE, path);
    boolean result = delegate.delete(path, recursive);
    if (f != null) {
      throw new UncheckedIOException(after(Op.DELETE, path));
    }
    return result;
  }

  @Override
  public boolean rename(Path from, Path to) throws IOException {
    Fault f = enter(Op.RENAME, to);
    boolean result = delegate.rename(from, to);
    if (f != null) {
      throw after(Op.RENAME, to);
    }
    return result;
  }

  @Override
  public void overwriteUtf8(Path path, String content) throws IOException {
    Fault f = enter(Op.CREATE, path);
    delegate.overwriteUtf8(path, content);
    if (f != null) {
      throw after(Op.CREATE, path);
    }
  }

  @Override
  public boolean tryCreateAtomically(Path path, String content) throws IOException {
    Fault f = enter(Op.CREATE, path);
    boolean result = delegate.tryCreateAtomically(path, content);
    if (f != null) {
      throw after(Op.CREATE, path);
    }
    return result;
  }
}

package io.basalt.fs.lock;

import io.basalt.fs.AtomicCreate;
import io.basalt.fs.FileIO;
import io.basalt.fs.InMemoryFileIO;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An in-memory store without an atomic create-if-absent, except under {@code atomicDir} (where a
 * lock directory can live). It records how many callers were inside {@link #createIfAbsent} at
 * once, and can hold each caller there at a barrier between its existence check and its write,
 * which is exactly the window two unsynchronised writers both pass.
 */
final class ObjectStoreFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  private final InMemoryFileIO files = new InMemoryFileIO();
  private final String atomicDir;
  private final transient AtomicInteger inside = new AtomicInteger();
  private final transient AtomicInteger maxInside = new AtomicInteger();
  private transient CyclicBarrier betweenCheckAndWrite;

  ObjectStoreFileIO(String atomicDir) {
    this.atomicDir = atomicDir;
  }

  /** Holds every creator after its existence check until {@code parties} creators got there. */
  void holdCreatorsUntil(int parties) {
    betweenCheckAndWrite = new CyclicBarrier(parties);
  }

  int maxConcurrentCreators() {
    return maxInside.get();
  }

  @Override
  public AtomicCreate atomicCreate(Path dir) {
    return dir.toString().startsWith(atomicDir) ? AtomicCreate.NATIVE : AtomicCreate.NONE;
  }

  @Override
  public boolean tryCreateAtomically(Path path, String content) throws IOException {
    if (!atomicCreate(path.getParent()).isAtomic()) {
      throw new IllegalStateException("no atomic create at " + path);
    }
    return files.tryCreateAtomically(path, content);
  }

  @Override
  public boolean createIfAbsent(Path path, String content) throws IOException {
    maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
    try {
      boolean absent = !files.exists(path);
      if (betweenCheckAndWrite != null) {
        try {
          betweenCheckAndWrite.await();
        } catch (Exception e) {
          throw new IllegalStateException("barrier broken", e);
        }
      }
      if (!absent) {
        return false;
      }
      files.overwriteUtf8(path, content); // a PUT replaces whatever is there
      return true;
    } finally {
      inside.decrementAndGet();
    }
  }

  @Override
  public Configuration conf() {
    return files.conf();
  }

  @Override
  public FileSystem fileSystem(Path path) {
    return files.fileSystem(path);
  }

  @Override
  public boolean exists(Path path) {
    return files.exists(path);
  }

  @Override
  public InputStream open(Path path) throws IOException {
    return files.open(path);
  }

  @Override
  public OutputStream create(Path path, boolean overwrite) throws IOException {
    return files.create(path, overwrite);
  }

  @Override
  public long size(Path path) {
    return files.size(path);
  }

  @Override
  public List<FileStatus> list(Path dir) {
    return files.list(dir);
  }

  @Override
  public void mkdirs(Path dir) {
    files.mkdirs(dir);
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    return files.delete(path, recursive);
  }

  @Override
  public boolean rename(Path from, Path to) throws IOException {
    return files.rename(from, to);
  }

  @Override
  public void overwriteUtf8(Path path, String content) throws IOException {
    files.overwriteUtf8(path, content);
  }
}

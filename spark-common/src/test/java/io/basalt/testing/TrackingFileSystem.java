package io.basalt.testing;

import io.basalt.fs.FileIO;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code tracking:} (a store without an atomic create:
 * tables on it need {@code commit.single-writer}), counting the streams it opens that are not
 * closed yet, and failing on request: the N-th open of a file whose name starts with a prefix, or
 * every write to such files. State is static (Hadoop instantiates file systems itself): call {@link
 * #reset()} before each test.
 */
public class TrackingFileSystem extends RawLocalFileSystem {
  private static final Map<Object, Path> OPEN = new ConcurrentHashMap<>();
  private static final AtomicInteger OPENS = new AtomicInteger();
  private static final Map<String, AtomicInteger> OPENED = new ConcurrentHashMap<>();
  private static volatile String failOpenPrefix;
  private static volatile int failOpenNumber;
  private static volatile String failWritePrefix;
  private static volatile long failWriteAfter;

  /** A FileIO whose {@code tracking:} paths use this file system. */
  public static FileIO fileIO() {
    Configuration conf = new Configuration();
    conf.set("fs.tracking.impl", TrackingFileSystem.class.getName());
    conf.setBoolean("fs.tracking.impl.disable.cache", true);
    return FileIO.hadoop(conf);
  }

  /** The {@code tracking:} path of local directory {@code dir}. */
  public static Path path(java.nio.file.Path dir) {
    return new Path("tracking://" + dir.toAbsolutePath());
  }

  public static void reset() {
    OPEN.clear();
    OPENS.set(0);
    OPENED.clear();
    failOpenPrefix = null;
    failWritePrefix = null;
  }

  /** Fails the {@code n}-th (from 1) open for reading of a file named {@code prefix}*. */
  public static void failOpen(String prefix, int n) {
    OPENS.set(0);
    failOpenNumber = n;
    failOpenPrefix = prefix;
  }

  /**
   * Fails every write to a file named {@code prefix}* once {@code afterBytes} bytes were written to
   * it (the write that reaches the count succeeds).
   */
  public static void failWrites(String prefix, long afterBytes) {
    failWriteAfter = afterBytes;
    failWritePrefix = prefix;
  }

  /** How many times files named {@code prefix}* were opened for reading since the last reset. */
  public static int opened(String prefix) {
    int count = 0;
    for (Map.Entry<String, AtomicInteger> file : OPENED.entrySet()) {
      if (file.getKey().startsWith(prefix)) {
        count += file.getValue().get();
      }
    }
    return count;
  }

  /** The files named {@code prefix}* opened for reading more than {@code n} times since reset. */
  public static List<String> openedMoreThan(String prefix, int n) {
    List<String> names = new ArrayList<>();
    OPENED.forEach(
        (name, count) -> {
          if (name.startsWith(prefix) && count.get() > n) {
            names.add(name + " x" + count.get());
          }
        });
    return names;
  }

  /** The files of streams opened and not closed yet. */
  public static List<Path> openStreams() {
    return new ArrayList<>(OPEN.values());
  }

  @Override
  public URI getUri() {
    return URI.create("tracking:///");
  }

  @Override
  public String getScheme() {
    return "tracking";
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String prefix = failOpenPrefix;
    if (prefix != null
        && f.getName().startsWith(prefix)
        && OPENS.incrementAndGet() == failOpenNumber) {
      throw new IOException("Injected failure opening " + f);
    }
    FSDataInputStream in = super.open(f, bufferSize);
    OPENED.computeIfAbsent(f.getName(), name -> new AtomicInteger()).incrementAndGet();
    Object id = new Object();
    OPEN.put(id, f);
    return new FSDataInputStream(in) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          OPEN.remove(id);
        }
      }
    };
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    return track(
        f, super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    return track(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
  }

  private FSDataOutputStream track(Path f, OutputStream stream) throws IOException {
    Object id = new Object();
    OPEN.put(id, f);
    String prefix = failWritePrefix;
    boolean fail = prefix != null && f.getName().startsWith(prefix);
    long limit = failWriteAfter;
    OutputStream failing =
        new OutputStream() {
          private long written;

          @Override
          public void write(int b) throws IOException {
            check();
            stream.write(b);
            written++;
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            check();
            stream.write(b, off, len);
            written += len;
          }

          private void check() throws IOException {
            if (fail && written >= limit) {
              throw new IOException("Injected failure writing " + f);
            }
          }

          @Override
          public void close() throws IOException {
            try {
              stream.close();
            } finally {
              OPEN.remove(id);
            }
          }
        };
    return new FSDataOutputStream(failing, null);
  }
}

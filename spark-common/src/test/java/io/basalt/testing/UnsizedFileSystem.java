package io.basalt.testing;

import io.basalt.fs.FileIO;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code unsized:}, which cannot tell the size of a file
 * still being written: like S3A it has no such file until the stream is closed ({@link
 * Mode#ABSENT}), or like HDFS it reports a lagging length ({@link Mode#ZERO}).
 */
public class UnsizedFileSystem extends RawLocalFileSystem {
  /** How a file open for writing looks to {@link #getFileStatus}. */
  public enum Mode {
    ABSENT,
    ZERO
  }

  private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();
  private static volatile Mode mode = Mode.ABSENT;

  /** A FileIO whose {@code unsized:} paths use this file system in {@code newMode}. */
  public static FileIO fileIO(Mode newMode) {
    mode = newMode;
    Configuration conf = new Configuration();
    conf.set("fs.unsized.impl", UnsizedFileSystem.class.getName());
    conf.setBoolean("fs.unsized.impl.disable.cache", true);
    return FileIO.hadoop(conf);
  }

  /** The {@code unsized:} path of local directory {@code dir}. */
  public static Path path(java.nio.file.Path dir) {
    return new Path("unsized://" + dir.toAbsolutePath());
  }

  @Override
  public URI getUri() {
    return URI.create("unsized:///");
  }

  @Override
  public String getScheme() {
    return "unsized";
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

  private FSDataOutputStream track(Path f, FSDataOutputStream stream) throws IOException {
    Path key = makeQualified(f);
    OPEN.add(key);
    return new FSDataOutputStream(stream, null) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          OPEN.remove(key);
        }
      }
    };
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    FileStatus status = super.getFileStatus(f);
    if (!OPEN.contains(makeQualified(f))) {
      return status;
    }
    if (mode == Mode.ABSENT) {
      throw new FileNotFoundException(f + " does not exist until its writer closes it");
    }
    return new FileStatus(
        0,
        false,
        status.getReplication(),
        status.getBlockSize(),
        status.getModificationTime(),
        status.getPath());
  }
}

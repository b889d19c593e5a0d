package io.basalt.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.fs.TablePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The latest and earliest snapshot ids must not depend on a directory listing being complete or
 * current (object stores, caches): the listing is a starting point, the files decide.
 */
class SnapshotManagerListingTest {
  private final StaleListingFileIO io = new StaleListingFileIO();
  private final TablePaths paths = new TablePaths(new Path("/t"));
  private final SnapshotManager snapshots = new SnapshotManager(io, paths);

  @Test
  void aListingThatMissesTheNewestSnapshotsDoesNotHideThem() throws IOException {
    for (long id = 1; id <= 4; id++) {
      io.overwriteUtf8(paths.snapshotFile(id), "{}");
    }
    io.hide(paths.snapshotFile(3));
    io.hide(paths.snapshotFile(4));
    assertThat(snapshots.latestSnapshotId()).hasValue(4);
  }

  @Test
  void aListingThatStillShowsExpiredSnapshotsDoesNotResurrectThem() throws IOException {
    for (long id = 1; id <= 4; id++) {
      io.overwriteUtf8(paths.snapshotFile(id), "{}");
    }
    io.deleteButKeepListed(paths.snapshotFile(1));
    io.deleteButKeepListed(paths.snapshotFile(2));
    assertThat(snapshots.earliestSnapshotId()).hasValue(3);
  }

  /** In-memory files whose listing can lag behind: hidden new files, listed deleted files. */
  private static final class StaleListingFileIO implements FileIO {
    private final InMemoryFileIO files = new InMemoryFileIO();
    private final Set<String> hidden = new HashSet<>();
    private final Set<Path> ghosts = new HashSet<>();

    void hide(Path path) {
      hidden.add(path.getName());
    }

    void deleteButKeepListed(Path path) {
      files.delete(path, false);
      ghosts.add(path);
    }

    @Override
    public List<FileStatus> list(Path dir) {
      List<FileStatus> listed = new java.util.ArrayList<>();
      for (FileStatus status : files.list(dir)) {
        if (!hidden.contains(status.getPath().getName())) {
          listed.add(status);
        }
      }
      for (Path ghost : ghosts) {
        if (ghost.getParent().equals(dir)) {
          listed.add(new FileStatus(2, false, 1, 1, 0, ghost));
        }
      }
      return listed;
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

    @Override
    public boolean tryCreateAtomically(Path path, String content) throws IOException {
      return files.tryCreateAtomically(path, content);
    }
  }
}

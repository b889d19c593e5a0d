package io.basalt.operation.orphan;

import io.basalt.fs.FileIO;
import io.basalt.index.IndexFilePaths;
import io.basalt.snapshot.SnapshotReferences;
import io.basalt.table.FileStoreTable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, and unless it is a dry run deletes, the files under a table that no snapshot, tag or
 * branch references and that were last modified before a bound: what a crashed writer, a failed
 * commit or an interrupted expiration left behind. Files younger than the bound are never touched,
 * since a running writer's files are not referenced yet.
 *
 * <p>Where it looks: data files in bucket directories (under partition directories), {@code
 * manifest/}, {@code index/}, {@code statistics/}, and temporary files ({@code .<name>.<uuid>.tmp})
 * of an interrupted atomic create in {@code snapshot/}, {@code tag/}, {@code schema/} and the
 * branches' metadata directories. Snapshot, tag, schema, hint, consumer and changelog metadata
 * files are never candidates. Directories are listed with streaming iterators.
 */
public final class OrphanFilesClean {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFilesClean.class);

  /** Directories whose files are candidates when no snapshot references them. */
  private static final Set<String> REFERENCED_DIRS =
      Set.of("manifest", IndexFilePaths.DIRECTORY, "statistics");

  /** Metadata directories where only temporary files can be orphans. */
  private static final Set<String> METADATA_DIRS = Set.of("snapshot", "tag", "schema");

  private final FileStoreTable table;
  private final FileIO fileIO;

  public OrphanFilesClean(FileStoreTable table) {
    this.table = table;
    this.fileIO = table.fileIO();
  }

  /**
   * What a run found.
   *
   * @param count orphan files found (and deleted, unless a dry run)
   * @param bytes their total size
   * @param paths their full paths, at most the {@code listLimit} given to {@link #clean}
   */
  public record Result(long count, long bytes, List<String> paths) {
    public Result {
      paths = List.copyOf(paths);
    }
  }

  /**
   * Finds the orphan files last modified before {@code olderThanMillis} and deletes them unless
   * {@code dryRun}.
   *
   * @param listLimit the most paths the result lists (the counts cover all)
   */
  public Result clean(long olderThanMillis, boolean dryRun, int listLimit) {
    Set<String> used = UsedFiles.of(table);
    Walk walk = new Walk(used, olderThanMillis, dryRun, listLimit);
    Path root = table.paths().root();
    for (FileStatus child : list(root)) {
      String name = child.getPath().getName();
      if (!child.isDirectory()) {
        continue; // nothing Basalt writes lives directly in the root
      }
      if (REFERENCED_DIRS.contains(name)) {
        walk.files(child.getPath(), false);
      } else if (METADATA_DIRS.contains(name)) {
        walk.files(child.getPath(), true);
      } else if (name.equals(SnapshotReferences.BRANCH_DIR)) {
        walk.branches(child.getPath());
      } else if (isDataDir(name)) {
        walk.data(child.getPath());
      }
    }
    LOG.info(
        "{} {} orphan files ({} bytes) of table {} older than {}",
        dryRun ? "Found" : "Deleted",
        walk.count,
        walk.bytes,
        table.name(),
        olderThanMillis);
    return new Result(walk.count, walk.bytes, walk.paths);
  }

  private static boolean isDataDir(String name) {
    return name.startsWith("bucket-") || (name.contains("=") && !name.startsWith("."));
  }

  /** The entries of {@code dir}, streamed; none when it does not exist (any more). */
  private Iterable<FileStatus> list(Path dir) {
    RemoteIterator<FileStatus> it;
    try {
      it = fileIO.fileSystem(dir).listStatusIterator(dir);
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + dir, e);
    }
    return () ->
        new java.util.Iterator<>() {
          @Override
          public boolean hasNext() {
            try {
              return it.hasNext();
            } catch (IOException e) {
              throw new UncheckedIOException("Failed to list " + dir, e);
            }
          }

          @Override
          public FileStatus next() {
            try {
              return it.next();
            } catch (IOException e) {
              throw new UncheckedIOException("Failed to list " + dir, e);
            }
          }
        };
  }

  /** One walk over the table directory, counting what it finds. */
  private final class Walk {
    private final Set<String> used;
    private final long olderThanMillis;
    private final boolean dryRun;
    private final int listLimit;
    private final List<String> paths = new ArrayList<>();
    private long count;
    private long bytes;

    Walk(Set<String> used, long olderThanMillis, boolean dryRun, int listLimit) {
      this.used = used;
      this.olderThanMillis = olderThanMillis;
      this.dryRun = dryRun;
      this.listLimit = listLimit;
    }

    /** Partition directories hold partition or bucket directories; bucket directories, files. */
    void data(Path dir) {
      boolean bucket = dir.getName().startsWith("bucket-");
      for (FileStatus child : list(dir)) {
        if (child.isDirectory() && isDataDir(child.getPath().getName())) {
          data(child.getPath());
        } else if (bucket && child.isFile()) {
          consider(child);
        }
      }
    }

    /** The files directly in {@code dir}; only temporary ones when {@code onlyTemporary}. */
    void files(Path dir, boolean onlyTemporary) {
      for (FileStatus child : list(dir)) {
        String name = child.getPath().getName();
        if (child.isFile() && (!onlyTemporary || isTemporary(name))) {
          consider(child);
        }
      }
    }

    /** Branch metadata: only temporary files; the branches' data lives in the table root. */
    void branches(Path branchRoot) {
      for (FileStatus branch : list(branchRoot)) {
        if (branch.isDirectory()) {
          for (String metadata : METADATA_DIRS) {
            files(new Path(branch.getPath(), metadata), true);
          }
        }
      }
    }

    private boolean isTemporary(String name) {
      return name.startsWith(".") && name.endsWith(".tmp");
    }

    private void consider(FileStatus file) {
      String name = file.getPath().getName();
      if (used.contains(name) || file.getModificationTime() >= olderThanMillis) {
        return;
      }
      count++;
      bytes += file.getLen();
      if (paths.size() < listLimit) {
        paths.add(file.getPath().toString());
      }
      if (!dryRun) {
        fileIO.delete(file.getPath(), false);
      }
    }
  }
}

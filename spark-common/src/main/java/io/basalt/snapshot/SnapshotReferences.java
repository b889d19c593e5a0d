package io.basalt.snapshot;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The snapshots besides the main branch's own that keep files alive: main's tags, and every
 * branch's snapshots and tags ({@code branch/branch-<name>/snapshot/snapshot-<id>} and {@code
 * .../tag/tag-<name>}, format-notes.md section 1). Branches share the data and manifest files of
 * the table root, so expiration and orphan-file cleanup must treat all of them as in use.
 */
public final class SnapshotReferences {
  /** The directory that holds the branches. */
  public static final String BRANCH_DIR = "branch";

  private static final String BRANCH_PREFIX = "branch-";
  private static final String SNAPSHOT_PREFIX = "snapshot-";
  private static final String TAG_PREFIX = "tag-";

  private final FileIO fileIO;
  private final TablePaths paths;

  public SnapshotReferences(FileIO fileIO, TablePaths paths) {
    this.fileIO = fileIO;
    this.paths = paths;
  }

  /**
   * Every tag of main and every snapshot and tag of each branch, read now. A file deleted while
   * listing (a tag or branch dropped concurrently) is skipped: it no longer references anything.
   */
  public List<Snapshot> all() {
    List<Snapshot> result = new ArrayList<>();
    readAll(paths.tagDir(), TAG_PREFIX, result);
    for (FileStatus branch : fileIO.list(new Path(paths.root(), BRANCH_DIR))) {
      if (branch.isDirectory() && branch.getPath().getName().startsWith(BRANCH_PREFIX)) {
        readAll(new Path(branch.getPath(), "snapshot"), SNAPSHOT_PREFIX, result);
        readAll(new Path(branch.getPath(), "tag"), TAG_PREFIX, result);
      }
    }
    return result;
  }

  private void readAll(Path dir, String prefix, List<Snapshot> into) {
    for (FileStatus status : fileIO.list(dir)) {
      String name = status.getPath().getName();
      if (!status.isFile() || !name.startsWith(prefix) || name.length() == prefix.length()) {
        continue;
      }
      if (prefix.equals(SNAPSHOT_PREFIX) && !isNumber(name.substring(prefix.length()))) {
        continue; // EARLIEST/LATEST hints and foreign files
      }
      try {
        into.add(SnapshotParser.fromJson(fileIO.readUtf8(status.getPath()), name));
      } catch (FileNotFoundException e) {
        // dropped between listing and reading: it pins nothing any more
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + status.getPath(), e);
      }
    }
  }

  private static boolean isNumber(String text) {
    return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}

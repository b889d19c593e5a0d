package io.basalt.snapshot;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Finds, reads and publishes snapshot files. {@code LATEST} and {@code EARLIEST} are hints only:
 * the snapshot files themselves are the truth.
 */
public final class SnapshotManager {
  private static final String PREFIX = "snapshot-";

  private final FileIO fileIO;
  private final TablePaths paths;

  public SnapshotManager(FileIO fileIO, TablePaths paths) {
    this.fileIO = fileIO;
    this.paths = paths;
  }

  /** The id of the latest snapshot, if the table has any. */
  public OptionalLong latestSnapshotId() {
    OptionalLong hint = readHint("LATEST");
    if (hint.isPresent()
        && fileIO.exists(paths.snapshotFile(hint.getAsLong()))
        && !fileIO.exists(paths.snapshotFile(hint.getAsLong() + 1))) {
      return hint;
    }
    return scanIds(true);
  }

  /** The id of the earliest snapshot still present, if any. */
  public OptionalLong earliestSnapshotId() {
    OptionalLong hint = readHint("EARLIEST");
    if (hint.isPresent()
        && fileIO.exists(paths.snapshotFile(hint.getAsLong()))
        && !fileIO.exists(paths.snapshotFile(hint.getAsLong() - 1))) {
      return hint;
    }
    return scanIds(false);
  }

  /** The latest snapshot, if any. */
  public Optional<Snapshot> latestSnapshot() {
    OptionalLong id = latestSnapshotId();
    return id.isPresent() ? Optional.of(snapshot(id.getAsLong())) : Optional.empty();
  }

  /** Whether snapshot {@code id} exists. */
  public boolean exists(long id) {
    return fileIO.exists(paths.snapshotFile(id));
  }

  /**
   * Reads snapshot {@code id}.
   *
   * @throws BasaltException naming the file when it is missing or corrupt
   */
  public Snapshot snapshot(long id) {
    Path file = paths.snapshotFile(id);
    String json;
    try {
      json = fileIO.readUtf8(file);
    } catch (FileNotFoundException e) {
      throw new BasaltException("Snapshot file " + file + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read snapshot file " + file, e);
    }
    return SnapshotParser.fromJson(json, file.toString());
  }

  /**
   * Publishes {@code snapshot} if no snapshot with its id exists yet, then moves the {@code LATEST}
   * hint. Returns false when another commit took the id first.
   */
  public boolean tryCommit(Snapshot snapshot) throws IOException {
    boolean created =
        fileIO.tryCreateAtomically(
            paths.snapshotFile(snapshot.id()), SnapshotParser.toJson(snapshot));
    if (created) {
      writeHint("LATEST", snapshot.id());
    }
    return created;
  }

  /** Deletes snapshot {@code id}'s file (expiration), moving the {@code EARLIEST} hint. */
  public void deleteSnapshot(long id, long newEarliest) throws IOException {
    writeHint("EARLIEST", newEarliest);
    fileIO.delete(paths.snapshotFile(id), false);
  }

  private OptionalLong readHint(String name) {
    Path hint = new Path(paths.snapshotDir(), name);
    try {
      if (!fileIO.exists(hint)) {
        return OptionalLong.empty();
      }
      return OptionalLong.of(Long.parseLong(fileIO.readUtf8(hint).trim()));
    } catch (IOException | NumberFormatException e) {
      // a hint is best-effort by design: a torn or unreadable one falls back to listing
      return OptionalLong.empty();
    }
  }

  private void writeHint(String name, long id) throws IOException {
    fileIO.overwriteUtf8(new Path(paths.snapshotDir(), name), String.valueOf(id));
  }

  private OptionalLong scanIds(boolean max) {
    OptionalLong result = OptionalLong.empty();
    for (FileStatus status : fileIO.list(paths.snapshotDir())) {
      String name = status.getPath().getName();
      if (!name.startsWith(PREFIX)) {
        continue;
      }
      long id;
      try {
        id = Long.parseLong(name.substring(PREFIX.length()));
      } catch (NumberFormatException e) {
        continue; // not a snapshot file (e.g. a foreign file); ignore it
      }
      if (result.isEmpty() || (max ? id > result.getAsLong() : id < result.getAsLong())) {
        result = OptionalLong.of(id);
      }
    }
    return result;
  }
}

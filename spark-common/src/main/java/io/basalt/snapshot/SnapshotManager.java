package io.basalt.snapshot;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, reads and publishes snapshot files. {@code LATEST} and {@code EARLIEST} are hints only:
 * the snapshot files themselves are the truth.
 */
public final class SnapshotManager {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotManager.class);
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
   * hint. Returns false when another commit took the id first. Once the file is created this never
   * throws: the snapshot stands, and a hint that could not be moved only makes readers list the
   * directory.
   */
  public boolean tryCommit(Snapshot snapshot) throws IOException {
    boolean created =
        fileIO.tryCreateAtomically(
            paths.snapshotFile(snapshot.id()), SnapshotParser.toJson(snapshot));
    if (created) {
      try {
        writeHint("LATEST", snapshot.id());
      } catch (IOException | RuntimeException e) {
        LOG.warn(
            "Snapshot {} landed but its LATEST hint in {} was not moved",
            snapshot.id(),
            paths.snapshotDir(),
            e);
      }
    }
    return created;
  }

  /** Deletes snapshot {@code id}'s file (expiration), moving the {@code EARLIEST} hint. */
  public void deleteSnapshot(long id, long newEarliest) throws IOException {
    writeHint("EARLIEST", newEarliest);
    fileIO.delete(paths.snapshotFile(id), false);
  }

  /**
   * Writes {@code snapshot}'s file under its own id when it is absent (a branch starting from a
   * tag, a rollback to a tag whose snapshot expired, a fast-forward), and points {@code LATEST} at
   * it. Returns false when a snapshot with that id exists already.
   */
  public boolean restore(Snapshot snapshot) throws IOException {
    return tryCommit(snapshot);
  }

  /**
   * Deletes snapshot {@code id}'s file and nothing else (rollback, fast-forward): the caller moves
   * the hints.
   */
  public void deleteFile(long id) {
    fileIO.delete(paths.snapshotFile(id), false);
  }

  /** Points the {@code LATEST} hint at {@code id}. */
  public void writeLatestHint(long id) throws IOException {
    writeHint("LATEST", id);
  }

  /** Points the {@code EARLIEST} hint at {@code id}. */
  public void writeEarliestHint(long id) throws IOException {
    writeHint("EARLIEST", id);
  }

  /** Removes both hints, so readers list the directory until they are written again. */
  public void deleteHints() {
    fileIO.delete(new Path(paths.snapshotDir(), "LATEST"), false);
    fileIO.delete(new Path(paths.snapshotDir(), "EARLIEST"), false);
  }

  /** The ids of every snapshot file present, ascending. */
  public List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    for (FileStatus status : fileIO.list(paths.snapshotDir())) {
      long id = idOf(status.getPath().getName());
      if (id > 0) {
        ids.add(id);
      }
    }
    Collections.sort(ids);
    return ids;
  }

  private static long idOf(String fileName) {
    if (!fileName.startsWith(PREFIX)) {
      return -1;
    }
    try {
      return Long.parseLong(fileName.substring(PREFIX.length()));
    } catch (NumberFormatException e) {
      return -1; // not a snapshot file (e.g. a foreign file); ignore it
    }
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

  /**
   * The latest or earliest id from a listing, confirmed against the files themselves: a listing may
   * lag behind (newer snapshots missing, deleted ones still shown), so listed ids whose file is
   * gone are skipped and the ids after the highest one present are probed.
   */
  private OptionalLong scanIds(boolean max) {
    List<Long> ids = ids();
    if (!max) {
      for (long id : ids) {
        if (exists(id)) {
          return OptionalLong.of(id);
        }
      }
      return OptionalLong.empty();
    }
    for (int i = ids.size() - 1; i >= 0; i--) {
      long id = ids.get(i);
      if (exists(id)) {
        while (exists(id + 1)) {
          id++;
        }
        return OptionalLong.of(id);
      }
    }
    return OptionalLong.empty();
  }

  /** The range of snapshots that exist, for error messages: "existing snapshots are 3 to 9". */
  public String describeRange() {
    OptionalLong earliest = earliestSnapshotId();
    OptionalLong latest = latestSnapshotId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return "the table has no snapshots";
    }
    return String.format(
        "existing snapshots are %s to %s", earliest.getAsLong(), latest.getAsLong());
  }
}

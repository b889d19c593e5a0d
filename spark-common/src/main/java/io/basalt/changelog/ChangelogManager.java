package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.SnapshotParser;
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

/**
 * Paimon's decoupled changelog metadata of one branch (format-notes.md section 1): when a table
 * keeps changelog longer than snapshots, expiring snapshot {@code N} writes its JSON, unchanged, to
 * {@code changelog/changelog-N} and keeps the files of its changelog manifest list (with no
 * producer, its delta). {@code LATEST} and {@code EARLIEST} there are hints only, as for snapshots:
 * a {@code LATEST} hint is trusted when the next changelog does not exist, an {@code EARLIEST} one
 * when its changelog does.
 */
public final class ChangelogManager {
  private static final String PREFIX = "changelog-";

  private final FileIO fileIO;
  private final TablePaths paths;

  public ChangelogManager(FileIO fileIO, TablePaths paths) {
    this.fileIO = fileIO;
    this.paths = paths;
  }

  /** The decoupled changelog directory. */
  public Path dir() {
    return paths.changelogDir();
  }

  /** The id of the newest decoupled changelog, if any. */
  public OptionalLong latestId() {
    OptionalLong hint = readHint("LATEST");
    if (hint.isPresent()
        && hint.getAsLong() > 0
        && exists(hint.getAsLong())
        && !exists(hint.getAsLong() + 1)) {
      return hint;
    }
    List<Long> ids = ids();
    return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(ids.size() - 1));
  }

  /** The id of the oldest decoupled changelog, if any. */
  public OptionalLong earliestId() {
    OptionalLong hint = readHint("EARLIEST");
    if (hint.isPresent() && exists(hint.getAsLong())) {
      return hint;
    }
    List<Long> ids = ids();
    return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(0));
  }

  /** Whether the decoupled changelog of snapshot {@code id} exists. */
  public boolean exists(long id) {
    return fileIO.exists(paths.changelogFile(id));
  }

  /** The decoupled changelog of snapshot {@code id}, or empty when there is none. */
  public Optional<Snapshot> changelog(long id) {
    Path file = paths.changelogFile(id);
    try {
      return Optional.of(SnapshotParser.fromJson(fileIO.readUtf8(file), file.toString()));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read changelog file " + file, e);
    }
  }

  /**
   * Snapshot {@code id} if it exists, else its decoupled changelog: what a reader of the snapshot's
   * changes needs. Empty when both are gone.
   */
  public static Optional<Snapshot> snapshotOrChangelog(
      SnapshotManager snapshots, ChangelogManager changelogs, long id) {
    if (snapshots.exists(id)) {
      try {
        return Optional.of(snapshots.snapshot(id));
      } catch (BasaltException e) {
        if (snapshots.exists(id)) {
          throw e;
        } // expired between the check and the read: its changelog may be there now
      }
    }
    return changelogs.changelog(id);
  }

  /**
   * Records expired {@code snapshot} as a decoupled changelog (overwriting a copy an interrupted
   * expiration left) and moves the {@code LATEST} hint.
   */
  public void commit(Snapshot snapshot) {
    try {
      fileIO.overwriteUtf8(paths.changelogFile(snapshot.id()), SnapshotParser.toJson(snapshot));
      writeHint("LATEST", snapshot.id());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write changelog file " + paths.changelogFile(snapshot.id()), e);
    }
  }

  /** Deletes the decoupled changelog of snapshot {@code id} (its files are the caller's). */
  public void delete(long id) {
    fileIO.delete(paths.changelogFile(id), false);
  }

  /** Points the {@code EARLIEST} hint at {@code id}. */
  public void writeEarliestHint(long id) {
    try {
      writeHint("EARLIEST", id);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write the EARLIEST hint in " + dir(), e);
    }
  }

  /**
   * Points the {@code LATEST} hint at {@code id}; Paimon writes -1 when a rollback removed every
   * decoupled changelog.
   */
  public void writeLatestHint(long id) {
    try {
      writeHint("LATEST", id);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write the LATEST hint in " + dir(), e);
    }
  }

  /**
   * Every decoupled changelog present, ascending; one deleted while listing is skipped. Their
   * number is bounded by the changelog retention.
   */
  public List<Snapshot> all() {
    List<Snapshot> result = new ArrayList<>();
    for (long id : ids()) {
      changelog(id).ifPresent(result::add);
    }
    return result;
  }

  /** The ids of every decoupled changelog present, ascending. */
  public List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    for (FileStatus status : fileIO.list(dir())) {
      String name = status.getPath().getName();
      if (status.isFile() && name.startsWith(PREFIX)) {
        String digits = name.substring(PREFIX.length());
        if (!digits.isEmpty() && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
          ids.add(Long.parseLong(digits));
        }
      }
    }
    Collections.sort(ids);
    return ids;
  }

  private OptionalLong readHint(String name) {
    Path hint = new Path(dir(), name);
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
    fileIO.overwriteUtf8(new Path(dir(), name), String.valueOf(id));
  }
}

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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes a table's tags: named, long-lived references to a snapshot. A tag is the file
 * {@code tag/tag-<name>} holding exactly the tagged snapshot's JSON (format-notes.md section 3), so
 * a tag stays readable after its snapshot expired; expiration keeps the files tags reference. Tags
 * are created atomically: creating an existing tag fails instead of replacing it.
 */
public final class TagManager {
  private static final String PREFIX = "tag-";

  private final FileIO fileIO;
  private final TablePaths paths;
  private final String tableName;

  public TagManager(FileIO fileIO, TablePaths paths, String tableName) {
    this.fileIO = fileIO;
    this.paths = paths;
    this.tableName = tableName;
  }

  /** The names of all tags, sorted. */
  public List<String> tagNames() {
    List<String> names = new ArrayList<>();
    for (FileStatus status : fileIO.list(paths.tagDir())) {
      String file = status.getPath().getName();
      if (status.isFile() && file.startsWith(PREFIX) && file.length() > PREFIX.length()) {
        names.add(file.substring(PREFIX.length()));
      }
    }
    Collections.sort(names);
    return names;
  }

  /** Every tag with its snapshot, sorted by name. */
  public Map<String, Snapshot> tags() {
    Map<String, Snapshot> tags = new TreeMap<>();
    for (String name : tagNames()) {
      tag(name).ifPresent(snapshot -> tags.put(name, snapshot));
    }
    return tags;
  }

  /** Whether tag {@code name} exists. */
  public boolean exists(String name) {
    return isValidName(name) && fileIO.exists(paths.tagFile(name));
  }

  /** The snapshot tag {@code name} references, if the tag exists. */
  public Optional<Snapshot> tag(String name) {
    if (!isValidName(name)) {
      return Optional.empty();
    }
    Path file = paths.tagFile(name);
    try {
      return Optional.of(SnapshotParser.fromJson(fileIO.readUtf8(file), file.toString()));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read tag file " + file, e);
    }
  }

  /**
   * The snapshot tag {@code name} references.
   *
   * @throws BasaltException naming the tag, the table and the existing tags when it does not exist
   */
  public Snapshot get(String name) {
    return tag(name).orElseThrow(() -> missing(name));
  }

  /**
   * Creates tag {@code name} on {@code snapshot}.
   *
   * @throws BasaltException when the name is invalid or the tag exists already
   */
  public void create(String name, Snapshot snapshot) {
    checkName(name);
    boolean created;
    try {
      created = fileIO.tryCreateAtomically(paths.tagFile(name), SnapshotParser.toJson(snapshot));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write tag file " + paths.tagFile(name), e);
    }
    if (!created) {
      throw new BasaltException(
          String.format(
              "Tag '%s' already exists on table %s (it references snapshot %s). Fix: choose"
                  + " another name, or delete the tag first.",
              name, tableName, tag(name).map(s -> String.valueOf(s.id())).orElse("?")));
    }
  }

  /**
   * Deletes tag {@code name}. The files only it kept alive are removed by the next expiration.
   *
   * @throws BasaltException when the tag does not exist
   */
  public void delete(String name) {
    if (!exists(name)) {
      throw missing(name);
    }
    fileIO.delete(paths.tagFile(name), false);
  }

  /**
   * Renames tag {@code from} to {@code to}: creates the new tag, then deletes the old one.
   *
   * @throws BasaltException when {@code from} does not exist or {@code to} exists already
   */
  public void rename(String from, String to) {
    Snapshot snapshot = get(from);
    create(to, snapshot);
    fileIO.delete(paths.tagFile(from), false);
  }

  private BasaltException missing(String name) {
    List<String> existing = tagNames();
    return new BasaltException(
        String.format(
            "Tag '%s' does not exist on table %s; existing tags: %s",
            name, tableName, existing.isEmpty() ? "none" : String.join(", ", existing)));
  }

  private static boolean isValidName(String name) {
    return name != null
        && !name.isBlank()
        && name.equals(name.trim())
        && !name.contains("/")
        && !name.contains("\\")
        && !name.startsWith(".");
  }

  private void checkName(String name) {
    if (!isValidName(name)) {
      throw new BasaltException(
          String.format(
              "Invalid tag name '%s' for table %s: a tag name must be non-blank, without"
                  + " surrounding spaces, '/' or '\\', and must not start with '.'",
              name, tableName));
    }
  }
}

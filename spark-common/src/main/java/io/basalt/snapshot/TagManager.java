package io.basalt.snapshot;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes a table's tags: named, long-lived references to a snapshot. A tag is the file
 * {@code tag/tag-<name>} holding exactly the tagged snapshot's JSON (format-notes.md section 3), so
 * a tag stays readable after its snapshot expired; expiration keeps the files tags reference. Tags
 * are created atomically: creating an existing tag fails instead of replacing it. A tag created
 * with a retention time also records its creation time ({@link Tag}).
 *
 * <p>This class handles tag files only; deleting the data files a removed tag alone kept alive is
 * {@code io.basalt.tag.TagDeletion}'s job.
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

  /** Every tag with its retention fields, sorted by name. */
  public List<Tag> tagObjects() {
    List<Tag> tags = new ArrayList<>();
    for (String name : tagNames()) {
      tagObject(name).ifPresent(tags::add);
    }
    return tags;
  }

  /** The modification time (epoch millis) of each tag file, by tag name. */
  public Map<String, Long> modificationTimes() {
    Map<String, Long> times = new HashMap<>();
    for (FileStatus status : fileIO.list(paths.tagDir())) {
      String file = status.getPath().getName();
      if (status.isFile() && file.startsWith(PREFIX) && file.length() > PREFIX.length()) {
        times.put(file.substring(PREFIX.length()), status.getModificationTime());
      }
    }
    return times;
  }

  /** Tag {@code name} with its retention fields, if it exists. */
  public Optional<Tag> tagObject(String name) {
    return readText(name)
        .map(text -> TagParser.fromJson(name, text, paths.tagFile(name).toString()));
  }

  /** Whether tag {@code name} exists. */
  public boolean exists(String name) {
    return isValidName(name) && fileIO.exists(paths.tagFile(name));
  }

  /** The snapshot tag {@code name} references, if the tag exists. */
  public Optional<Snapshot> tag(String name) {
    return readText(name)
        .map(text -> SnapshotParser.fromJson(text, paths.tagFile(name).toString()));
  }

  private Optional<String> readText(String name) {
    if (!isValidName(name)) {
      return Optional.empty();
    }
    Path file = paths.tagFile(name);
    try {
      return Optional.of(fileIO.readUtf8(file));
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
    create(name, snapshot, null);
  }

  /**
   * Creates tag {@code name} on {@code snapshot}, kept for {@code timeRetained} from now when it is
   * not null (the tag file then records the creation time too).
   *
   * @throws BasaltException when the name is invalid or the tag exists already
   */
  public void create(String name, Snapshot snapshot, @Nullable Duration timeRetained) {
    checkName(name);
    createText(name, tagText(snapshot, timeRetained));
  }

  /**
   * Points the existing tag {@code name} at {@code snapshot} with retention {@code timeRetained}
   * (creation time now). Like Paimon, the file is overwritten in place.
   *
   * @return the tag as it was before
   * @throws BasaltException when the tag does not exist
   */
  public Tag replace(String name, Snapshot snapshot, @Nullable Duration timeRetained) {
    Tag previous = tagObject(name).orElseThrow(() -> missing(name));
    try {
      fileIO.overwriteUtf8(paths.tagFile(name), tagText(snapshot, timeRetained));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write tag file " + paths.tagFile(name), e);
    }
    return previous;
  }

  private static String tagText(Snapshot snapshot, @Nullable Duration timeRetained) {
    return timeRetained == null
        ? SnapshotParser.toJson(snapshot)
        : TagParser.toJson(snapshot, LocalDateTime.now(), timeRetained);
  }

  private void createText(String name, String text) {
    boolean created;
    try {
      created = fileIO.tryCreateAtomically(paths.tagFile(name), text);
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
   * Deletes the file of tag {@code name} only; {@code io.basalt.tag.TagDeletion} also deletes the
   * data files only the tag kept alive.
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
    // copy the file as it is, so the creation time and retention move along
    String text = readText(from).orElseThrow(() -> missing(from));
    checkName(to);
    createText(to, text);
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

package io.basalt.branch;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.schema.SchemaManager;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Lists, creates and deletes a table's branches (format-notes.md section 1). A branch is the
 * directory {@code branch/branch-<name>/} with its own {@code schema/}, {@code snapshot/} and
 * {@code tag/}; it shares the table's manifest, index and data files. {@link
 * TablePaths#MAIN_BRANCH} is the table root itself and can be neither created nor deleted. Deleting
 * a branch's files and fast-forwarding main to a branch live in {@code
 * io.basalt.operation.history}.
 */
public final class BranchManager {
  private final FileIO fileIO;
  private final TablePaths main;
  private final String tableName;

  /**
   * @param paths any branch's paths of the table; the manager works from the table root
   * @param tableName the table's name for messages, e.g. {@code db.t}
   */
  public BranchManager(FileIO fileIO, TablePaths paths, String tableName) {
    this.fileIO = fileIO;
    this.main = paths.withBranch(TablePaths.MAIN_BRANCH);
    this.tableName = tableName;
  }

  /** The names of the branches other than main, sorted. */
  public List<String> branches() {
    List<String> names = new ArrayList<>();
    for (FileStatus status : fileIO.list(main.branchesDir())) {
      String dir = status.getPath().getName();
      if (status.isDirectory()
          && dir.startsWith(TablePaths.BRANCH_PREFIX)
          && dir.length() > TablePaths.BRANCH_PREFIX.length()) {
        names.add(dir.substring(TablePaths.BRANCH_PREFIX.length()));
      }
    }
    Collections.sort(names);
    return names;
  }

  /** Whether branch {@code name} exists; main always does. */
  public boolean exists(String name) {
    if (TablePaths.MAIN_BRANCH.equals(name)) {
      return true;
    }
    return isValidName(name) && fileIO.exists(main.branchDir(name));
  }

  /** The directory of branch {@code name}, for its creation time. */
  public FileStatus status(String name) {
    Path dir = main.branchDir(name);
    try {
      return fileIO.fileSystem(dir).getFileStatus(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read branch directory " + dir, e);
    }
  }

  /**
   * Fails unless branch {@code name} exists, naming the existing branches.
   *
   * @throws BasaltException when it does not exist
   */
  public void checkExists(String name) {
    if (!exists(name)) {
      throw new BasaltException(
          String.format(
              "Branch '%s' does not exist on table %s; existing branches: %s",
              name, tableName, describe(branches())));
    }
  }

  /**
   * Creates branch {@code name}. From a tag, the branch starts with the tagged snapshot (under its
   * own id), that tag, and the schemas up to the snapshot's; without a tag, it starts empty with
   * the schemas up to the main branch's latest one. The main branch is not changed.
   *
   * @throws BasaltException when the name is invalid or taken, or the tag does not exist
   */
  public void create(String name, @Nullable String tag) {
    checkNewName(name);
    SchemaManager mainSchemas = new SchemaManager(fileIO, main);
    Snapshot start = null;
    long schemaId;
    if (tag == null) {
      schemaId = mainSchemas.latest().map(TableSchema::id).orElse(0L);
    } else {
      start = new TagManager(fileIO, main, tableName).get(tag);
      schemaId = start.schemaId();
    }
    TablePaths branch = main.withBranch(name);
    try {
      for (long id = 0; id <= schemaId; id++) {
        if (fileIO.exists(main.schemaFile(id))) {
          copy(main.schemaFile(id), branch.schemaFile(id));
        }
      }
      if (start != null) {
        copy(main.tagFile(tag), branch.tagFile(tag));
        SnapshotManager snapshots = new SnapshotManager(fileIO, branch);
        snapshots.restore(start);
        snapshots.writeEarliestHint(start.id());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to create branch '"
              + name
              + "' of "
              + tableName
              + " in "
              + branch.branchDir(name),
          e);
    }
  }

  /**
   * Deletes branch {@code name}'s directory: its schemas, snapshots and tags. This alone leaves the
   * data and manifest files only it referenced behind; {@code DeleteBranch} removes those too.
   *
   * @throws BasaltException for the main branch or a branch that does not exist
   */
  public void delete(String name) {
    checkDeletable(name);
    fileIO.delete(main.branchDir(name), true);
  }

  /**
   * Fails unless {@code name} names a branch that may be deleted.
   *
   * @throws BasaltException for the main branch or a branch that does not exist
   */
  public void checkDeletable(String name) {
    if (TablePaths.MAIN_BRANCH.equals(name)) {
      throw new BasaltException(
          String.format(
              "Cannot delete the main branch of table %s: it is the table itself. Fix: DROP TABLE"
                  + " %s to remove the table, or delete one of its branches: %s",
              tableName, tableName, describe(branches())));
    }
    checkExists(name);
  }

  /**
   * Renames branch {@code from} to {@code to} by renaming its directory, as Paimon does: the
   * branch's schemas, snapshots and tags move with it, and its data files (under the table root)
   * stay where they are.
   *
   * @throws BasaltException for the main branch, a branch that does not exist, or an invalid or
   *     taken new name
   */
  public void rename(String from, String to) {
    if (TablePaths.MAIN_BRANCH.equals(from)) {
      throw new BasaltException(
          String.format(
              "Cannot rename the main branch of table %s: it is the table itself. Fix: rename one"
                  + " of its branches: %s, or the table with ALTER TABLE %s RENAME TO.",
              tableName, describe(branches()), tableName));
    }
    checkExists(from);
    checkNewName(to);
    Path source = main.branchDir(from);
    Path target = main.branchDir(to);
    try {
      if (!fileIO.rename(source, target)) {
        throw new BasaltException(
            String.format(
                "Cannot rename branch '%s' of table %s to '%s': renaming %s to %s failed (a"
                    + " concurrent rename or create?). Fix: check the branches and retry.",
                from, tableName, to, source, target));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to rename branch '" + from + "' of " + tableName + " to '" + to + "'", e);
    }
  }

  /** Copies a small metadata file, creating the target only if absent. */
  private void copy(Path from, Path to) throws IOException {
    if (!fileIO.tryCreateAtomically(to, fileIO.readUtf8(from))) {
      throw new BasaltException(
          String.format(
              "Cannot create branch of table %s: %s exists already (a concurrent create?)",
              tableName, to));
    }
  }

  private void checkNewName(String name) {
    if (!isValidName(name)) {
      throw new BasaltException(
          String.format(
              "Invalid branch name '%s' for table %s: a branch name must be non-blank, without"
                  + " whitespace, '/', '\\' or '$', must not start with '.' and must not be"
                  + " only digits (those are snapshot ids)",
              name, tableName));
    }
    if (TablePaths.MAIN_BRANCH.equals(name)) {
      throw new BasaltException(
          String.format(
              "Branch name 'main' is the default branch of table %s and cannot be created. Fix:"
                  + " choose another name.",
              tableName));
    }
    if (exists(name)) {
      throw new BasaltException(
          String.format(
              "Branch '%s' already exists on table %s. Fix: choose another name, or delete the"
                  + " branch first.",
              name, tableName));
    }
  }

  /** Branch names become directory names and parts of table names ({@code t$branch_<name>}). */
  static boolean isValidName(String name) {
    return name != null
        && !name.isEmpty()
        && name.chars().noneMatch(Character::isWhitespace)
        && !name.chars().allMatch(c -> c >= '0' && c <= '9')
        && !name.contains("/")
        && !name.contains("\\")
        && !name.contains("$")
        && !name.startsWith(".");
  }

  private static String describe(List<String> names) {
    return names.isEmpty() ? "none besides main" : String.join(", ", names);
  }
}

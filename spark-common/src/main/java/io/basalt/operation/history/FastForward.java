package io.basalt.operation.history;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.operation.expire.FileReferences;
import io.basalt.schema.SchemaManager;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;

/**
 * Makes a branch's history the main branch's, as Paimon's fast-forward does: main's snapshots from
 * the branch's earliest snapshot on, the tags on them and the schemas from that snapshot's schema
 * on are deleted; then the branch's schemas, snapshots and tags are copied to main. The branch
 * stays. Data, manifest and index files only main's replaced snapshots and tags used are deleted
 * afterwards. Stop writers to main while fast-forwarding: a racing commit to main is not detected.
 */
public final class FastForward {
  private final FileStoreTable main;
  private final FileIO fileIO;

  /**
   * @param table any branch of the table; main is the one changed
   */
  public FastForward(FileStoreTable table) {
    this.main = table.switchToBranch(TablePaths.MAIN_BRANCH);
    this.fileIO = table.fileIO();
  }

  /**
   * Fast-forwards main to branch {@code name}.
   *
   * @return the latest snapshot id of main afterwards
   * @throws BasaltException for main itself, an unknown branch, or a branch without snapshots
   */
  public long to(String name) {
    if (TablePaths.MAIN_BRANCH.equals(name)) {
      throw new BasaltException(
          String.format(
              "Cannot fast-forward table %s to branch 'main': main is the branch being replaced."
                  + " Fix: name another branch: %s",
              main.name(), describe(main.branchManager().branches())));
    }
    FileStoreTable branch = main.switchToBranch(name);
    SnapshotManager branchSnapshots = branch.snapshotManager();
    OptionalLong start = branchSnapshots.earliestSnapshotId();
    OptionalLong end = branchSnapshots.latestSnapshotId();
    if (start.isEmpty() || end.isEmpty()) {
      throw new BasaltException(
          String.format(
              "Cannot fast-forward table %s to branch '%s': the branch has no snapshots. Fix:"
                  + " write to %s first.",
              main.name(), name, branch.name()));
    }
    long from = start.getAsLong();
    long fromSchema = branchSnapshots.snapshot(from).schemaId();
    SnapshotManager snapshots = main.snapshotManager();
    TagManager tags = main.tagManager();

    FileReferences candidates = new FileReferences(main);
    List<Long> replaced = snapshots.ids().stream().filter(id -> id >= from).toList();
    boolean keepsOlder = snapshots.ids().stream().anyMatch(id -> id < from);
    for (int i = 0; i < replaced.size(); i++) {
      Snapshot removed = snapshots.snapshot(replaced.get(i));
      // without older snapshots left, what the first replaced one inherited goes as well
      if (i == 0 && !keepsOlder) {
        candidates.addSnapshot(removed);
      } else {
        candidates.addAddedFiles(removed);
      }
    }
    Map<String, Snapshot> replacedTags = new TreeMap<>(tags.tags());
    replacedTags.values().removeIf(tagged -> tagged.id() < from);
    replacedTags.values().forEach(candidates::addSnapshot);

    replaceMetadata(branch, replaced, replacedTags.keySet(), fromSchema);
    try {
      snapshots.writeLatestHint(end.getAsLong());
      snapshots.writeEarliestHint(keepsOlder ? snapshots.ids().get(0) : from);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write the snapshot hints of " + main.name(), e);
    }
    FileStoreTable newMain = main.switchToBranch(TablePaths.MAIN_BRANCH);
    FileReferences retained = new FileReferences(newMain).addBranch(newMain).addOtherBranches();
    candidates.deleteUnreferenced(retained);
    return end.getAsLong();
  }

  private void replaceMetadata(
      FileStoreTable branch, List<Long> replaced, Iterable<String> replacedTags, long fromSchema) {
    TablePaths mainPaths = main.paths();
    TablePaths branchPaths = branch.paths();
    SnapshotManager snapshots = main.snapshotManager();
    snapshots.deleteHints();
    for (int i = replaced.size() - 1; i >= 0; i--) {
      snapshots.deleteFile(replaced.get(i));
    }
    for (String tag : replacedTags) {
      main.tagManager().delete(tag);
    }
    for (long id : main.schemaManager().ids()) {
      if (id >= fromSchema) {
        fileIO.delete(mainPaths.schemaFile(id), false);
      }
    }
    try {
      for (long id : new SchemaManager(fileIO, branchPaths).ids()) {
        copy(branchPaths.schemaFile(id), mainPaths.schemaFile(id));
      }
      for (long id : branch.snapshotManager().ids()) {
        copy(branchPaths.snapshotFile(id), mainPaths.snapshotFile(id));
      }
      for (String tag : branch.tagManager().tagNames()) {
        copy(branchPaths.tagFile(tag), mainPaths.tagFile(tag));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to copy branch '" + branch.branch() + "' of " + main.name() + " to main", e);
    }
  }

  private void copy(Path from, Path to) throws IOException {
    fileIO.overwriteUtf8(to, fileIO.readUtf8(from));
  }

  private static String describe(List<String> names) {
    return names.isEmpty() ? "none besides main" : String.join(", ", names);
  }
}

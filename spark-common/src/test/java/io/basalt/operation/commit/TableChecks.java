package io.basalt.operation.commit;

import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;

/** Invariants of a table whose data files are placeholders in an in-memory file system. */
final class TableChecks {
  private TableChecks() {}

  /** Writes a placeholder for every data and index file {@code messages} wrote. */
  static void touch(io.basalt.fs.FileIO raw, FileStoreTable table, List<CommitMessage> messages) {
    for (CommitMessage message : messages) {
      Path dir = table.dataFilePaths().bucketDir(message.partition(), message.bucket());
      List<DataFileMeta> files = new ArrayList<>(message.newFiles());
      files.addAll(message.compactAfter());
      for (DataFileMeta file : files) {
        create(raw, new Path(dir, file.fileName()));
      }
      for (IndexFileMeta file : message.newIndexFiles()) {
        create(raw, new IndexFilePaths(table.paths()).toPath(file));
      }
    }
  }

  private static void create(io.basalt.fs.FileIO raw, Path path) {
    if (raw.exists(path)) {
      return; // an upgraded file keeps its name
    }
    try (OutputStream out = raw.create(path, false)) {
      out.write(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The live files of {@code snapshot}, as "partition/bucket/name@level". */
  static TreeSet<String> live(FileStoreTable table, Snapshot snapshot) {
    TreeSet<String> names = new TreeSet<>();
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      names.add(key(table, entry));
    }
    return names;
  }

  static String key(FileStoreTable table, ManifestEntry entry) {
    return table.dataFilePaths().partitionPath(entry.partition())
        + "/"
        + entry.bucket()
        + "/"
        + entry.file().fileName()
        + "@"
        + entry.file().level();
  }

  /** The entries of {@code snapshot}'s delta manifests, for debugging. */
  static List<String> delta(FileStoreTable table, Snapshot snapshot) {
    List<String> result = new ArrayList<>();
    io.basalt.manifest.ManifestFiles manifests = table.manifestFiles();
    for (io.basalt.manifest.ManifestFileMeta meta :
        manifests.readManifestList(snapshot.deltaManifestList())) {
      try (io.basalt.utils.CloseableIterator<ManifestEntry> it =
          manifests.readManifest(meta.fileName())) {
        it.forEachRemaining(e -> result.add(e.kind() + " " + key(table, e)));
      }
    }
    return result;
  }

  /** The live files of the latest snapshot, empty for a table without one. */
  static TreeSet<String> latest(FileStoreTable table) {
    return table.latestSnapshot().map(s -> live(table, s)).orElse(new TreeSet<>());
  }

  /**
   * Checks that every snapshot and tag is readable and that every data and index file they
   * reference exists.
   *
   * @return what is wrong, empty when nothing is
   */
  static List<String> problems(FileStoreTable table, io.basalt.fs.FileIO raw) {
    return problems(table, raw, new java.util.HashMap<>());
  }

  /**
   * Like {@link #problems(FileStoreTable, io.basalt.fs.FileIO)}, caching each snapshot's files by
   * its delta manifest list and index manifest (both unique to it, and never rewritten).
   */
  static List<String> problems(
      FileStoreTable table, io.basalt.fs.FileIO raw, Map<String, List<Path>> cache) {
    List<String> problems = new ArrayList<>();
    List<Snapshot> all = new ArrayList<>();
    for (long id : table.snapshotManager().ids()) {
      all.add(table.snapshotManager().snapshot(id));
    }
    for (Map.Entry<String, Snapshot> tag : table.tagManager().tags().entrySet()) {
      all.add(tag.getValue());
    }
    for (Snapshot snapshot : all) {
      List<Path> referenced;
      try {
        referenced =
            cache.computeIfAbsent(
                snapshot.deltaManifestList() + "|" + snapshot.indexManifest(),
                k -> referencedFiles(table, raw, snapshot));
      } catch (RuntimeException e) {
        problems.add("snapshot " + snapshot.id() + " unreadable: " + e.getMessage());
        continue;
      }
      for (Path path : referenced) {
        if (!raw.exists(path)) {
          problems.add("snapshot " + snapshot.id() + " references deleted " + path);
        }
      }
    }
    return problems;
  }

  private static List<Path> referencedFiles(
      FileStoreTable table, io.basalt.fs.FileIO raw, Snapshot snapshot) {
    List<Path> paths = new ArrayList<>();
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      paths.add(
          new Path(
              table.dataFilePaths().bucketDir(entry.partition(), entry.bucket()),
              entry.file().fileName()));
    }
    for (IndexManifestEntry entry :
        new IndexManifests(raw, table.paths()).read(snapshot.indexManifest())) {
      paths.add(new IndexFilePaths(table.paths()).toPath(entry.indexFile()));
    }
    return paths;
  }
}

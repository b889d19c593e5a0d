package io.basalt.spark.it;

import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/** Looks at a table through the engine API: its live files, snapshots and referenced files. */
abstract class CompactTestSupport extends SparkTestBase {
  static final String DB = "cmp";

  /** The engine handle of {@code cmp.name}, loaded fresh. */
  FileStoreTable table(String name) {
    return FileStoreTable.load(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(tablePath(DB, name).toUri()),
        DB + "." + name);
  }

  List<DataSplit> splits(String name) {
    return table(name).newScan().plan().splits();
  }

  long latestSnapshotId(String name) {
    OptionalLong id = table(name).snapshotManager().latestSnapshotId();
    return id.isPresent() ? id.getAsLong() : 0;
  }

  Snapshot snapshot(String name, long id) {
    return table(name).snapshotManager().snapshot(id);
  }

  /** Live file names by "partition/bucket". */
  TreeMap<String, Set<String>> liveFiles(String name) {
    TreeMap<String, Set<String>> files = new TreeMap<>();
    for (DataSplit split : splits(name)) {
      Set<String> names = new HashSet<>();
      for (DataFileMeta file : split.files()) {
        names.add(file.fileName());
      }
      files.put(split.partition() + "/" + split.bucket(), names);
    }
    return files;
  }

  /** The names of the data files any existing snapshot references. */
  Set<String> referencedFiles(String name) {
    FileStoreTable t = table(name);
    Set<String> names = new HashSet<>();
    OptionalLong latest = t.snapshotManager().latestSnapshotId();
    OptionalLong earliest = t.snapshotManager().earliestSnapshotId();
    if (latest.isEmpty()) {
      return names;
    }
    for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
      for (DataSplit split : t.newScan().withSnapshot(id).plan().splits()) {
        for (DataFileMeta file : split.files()) {
          names.add(file.fileName());
        }
      }
    }
    return names;
  }

  /** The names of the data files on disk. */
  Set<String> dataFileNames(String name) {
    Set<String> names = new HashSet<>();
    for (String path : dataFiles(tablePath(DB, name))) {
      names.add(path.substring(path.lastIndexOf('/') + 1));
    }
    return names;
  }

  /** The number of sorted runs of a primary-key split: one per level-0 file, one per level. */
  static int sortedRuns(DataSplit split) {
    Set<Integer> levels = new HashSet<>();
    int runs = 0;
    for (DataFileMeta file : split.files()) {
      if (file.level() == 0) {
        runs++;
      } else if (levels.add(file.level())) {
        runs++;
      }
    }
    return runs;
  }
}

package io.basalt.operation.commit;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowComparator;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestEntry.FileIdentifier;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.types.DataType;

/**
 * Checks a commit's changes against the latest snapshot, for every commit kind, reading only the
 * partitions the changes touch. A conflict is real only when: a file the commit deletes is no
 * longer live (deleted twice); the new files of a partition disagree with the bucket count of the
 * files that stay in it; or two files of one level above 0 in a bucket overlap in keys. A newer
 * snapshot alone is never a conflict.
 */
final class ConflictDetector {
  private final FileStoreTable table;
  private final TouchedEntries touched;

  ConflictDetector(FileStoreTable table) {
    this.table = table;
    this.touched = new TouchedEntries(table.manifestFiles(), table.partitionType(), table.name());
  }

  /** Throws {@link CommitConflictException} when {@code changes} conflict with {@code latest}. */
  void check(Snapshot latest, List<ManifestEntry> changes) {
    Map<FileIdentifier, ManifestEntry> live = new LinkedHashMap<>();
    for (ManifestEntry entry : touched.live(latest, CommitChanges.partitions(changes))) {
      live.put(entry.identifier(), entry);
    }
    for (ManifestEntry change : changes) {
      if (change.kind() == FileKind.DELETE && live.remove(change.identifier()) == null) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s conflicts with snapshot %s: file %s (bucket %s, level %s) it"
                    + " replaces was already removed by a concurrent compaction or overwrite."
                    + " Nothing was committed; retry the operation.",
                table.name(),
                latest.id(),
                change.file().fileName(),
                change.bucket(),
                change.file().level()));
      }
    }
    checkBucketCounts(latest, live.values(), changes);
    for (ManifestEntry change : changes) {
      if (change.kind() == FileKind.ADD) {
        live.put(change.identifier(), change);
      }
    }
    if (table.hasPrimaryKey()) {
      checkLevelsDoNotOverlap(latest, live.values(), changes);
    }
  }

  /** The files a commit adds must use the bucket count of the files that remain in a partition. */
  private void checkBucketCounts(
      Snapshot latest, Iterable<ManifestEntry> remaining, List<ManifestEntry> changes) {
    Map<BinaryRow, ManifestEntry> counts = new HashMap<>();
    for (ManifestEntry entry : remaining) {
      // postponed files (bucket -2) wait for a bucket and hold no count
      if (entry.bucket() != -2) {
        counts.putIfAbsent(entry.partition(), entry);
      }
    }
    for (ManifestEntry change : changes) {
      ManifestEntry existing = counts.get(change.partition());
      if (change.kind() == FileKind.ADD
          && change.bucket() != -2
          && existing != null
          && existing.totalBuckets() != change.totalBuckets()) {
        throw new CommitConflictException(
            String.format(
                "Commit to table %s conflicts with snapshot %s: file %s was written for %s buckets"
                    + " but %s has %s buckets (file %s). Nothing was committed. Fix:"
                    + " change a partition's bucket count only with INSERT OVERWRITE of the whole"
                    + " partition (rescale), then write again.",
                table.name(),
                latest.id(),
                change.file().fileName(),
                change.totalBuckets(),
                describe(change.partition()),
                existing.totalBuckets(),
                existing.file().fileName()));
      }
    }
  }

  private String describe(BinaryRow partition) {
    String path = table.dataFilePaths().partitionPath(partition);
    return path.isEmpty() ? "the (unpartitioned) table" : "partition '" + path + "'";
  }

  private void checkLevelsDoNotOverlap(
      Snapshot latest, Iterable<ManifestEntry> entries, List<ManifestEntry> changes) {
    Set<List<Object>> changedRuns = new HashSet<>();
    for (ManifestEntry change : changes) {
      if (change.kind() == FileKind.ADD && change.file().level() > 0) {
        changedRuns.add(List.of(change.partition(), change.bucket(), change.file().level()));
      }
    }
    if (changedRuns.isEmpty()) {
      return;
    }
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<DataType> keyTypes = layout.keyTypes();
    BinaryRowCodec codec = new BinaryRowCodec(layout.keyType());
    RowComparator order = new RowComparator(keyTypes);
    Map<List<Object>, List<DataFileMeta>> runs = new HashMap<>();
    for (ManifestEntry entry : entries) {
      List<Object> run = List.of(entry.partition(), entry.bucket(), entry.file().level());
      if (changedRuns.contains(run)) {
        runs.computeIfAbsent(run, k -> new ArrayList<>()).add(entry.file());
      }
    }
    for (Map.Entry<List<Object>, List<DataFileMeta>> run : runs.entrySet()) {
      List<DataFileMeta> files = run.getValue();
      files.sort((a, b) -> order.compare(codec.toRow(a.minKey()), codec.toRow(b.minKey())));
      for (int i = 1; i < files.size(); i++) {
        BinaryRow previousMax = files.get(i - 1).maxKey();
        BinaryRow nextMin = files.get(i).minKey();
        if (order.compare(codec.toRow(previousMax), codec.toRow(nextMin)) >= 0) {
          throw new CommitConflictException(
              String.format(
                  "LSM conflicts detected in table %s at snapshot %s: files %s and %s of bucket %s"
                      + " level %s have overlapping keys, likely from two concurrent compactions."
                      + " Nothing was committed; retry the compaction.",
                  table.name(),
                  latest.id(),
                  files.get(i - 1).fileName(),
                  files.get(i).fileName(),
                  run.getKey().get(1),
                  run.getKey().get(2)));
        }
      }
    }
  }

  /**
   * Refuses to commit files written for columns that an ALTER TABLE changed since the write
   * started: a compaction in such a write would rewrite newer files without the newer columns.
   * Option-only changes are fine. The caller aborts, which deletes the new files.
   *
   * @throws BasaltException naming the table and both schema ids
   */
  void checkColumnsUnchanged() {
    table
        .schemaManager()
        .latest()
        .filter(latest -> !latest.fields().equals(table.schema().fields()))
        .ifPresent(
            latest -> {
              throw new BasaltException(
                  String.format(
                      "The columns of table %s changed (schema %s to schema %s) while this write"
                          + " ran; nothing was committed. Fix: run the write again.",
                      table.name(), table.schema().id(), latest.id()));
            });
  }
}

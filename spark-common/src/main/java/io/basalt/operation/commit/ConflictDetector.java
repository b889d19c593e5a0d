package io.basalt.operation.commit;

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
 * Checks that changes which delete files still fit the latest snapshot: every file they delete is
 * still live (no concurrent compaction or overwrite took it), and afterwards no two files of one
 * level above 0 in a bucket have overlapping key ranges.
 */
final class ConflictDetector {
  private final FileStoreTable table;

  ConflictDetector(FileStoreTable table) {
    this.table = table;
  }

  /** Throws {@link CommitConflictException} when {@code changes} conflict with {@code latest}. */
  void check(Snapshot latest, List<ManifestEntry> changes) {
    Set<List<Object>> buckets = new HashSet<>();
    for (ManifestEntry change : changes) {
      buckets.add(List.of(change.partition(), change.bucket()));
    }
    Map<FileIdentifier, ManifestEntry> live = new LinkedHashMap<>();
    for (ManifestEntry entry : table.newScan().liveEntries(latest)) {
      if (buckets.contains(List.of(entry.partition(), entry.bucket()))) {
        live.put(entry.identifier(), entry);
      }
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
    for (ManifestEntry change : changes) {
      if (change.kind() == FileKind.ADD) {
        live.put(change.identifier(), change);
      }
    }
    if (table.hasPrimaryKey()) {
      checkLevelsDoNotOverlap(latest, live.values());
    }
  }

  private void checkLevelsDoNotOverlap(Snapshot latest, Iterable<ManifestEntry> entries) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<DataType> keyTypes = layout.keyTypes();
    BinaryRowCodec codec = new BinaryRowCodec(layout.keyType());
    RowComparator order = new RowComparator(keyTypes);
    Map<List<Object>, List<DataFileMeta>> runs = new HashMap<>();
    for (ManifestEntry entry : entries) {
      if (entry.file().level() > 0) {
        runs.computeIfAbsent(
                List.of(entry.partition(), entry.bucket(), entry.file().level()),
                k -> new ArrayList<>())
            .add(entry.file());
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
}

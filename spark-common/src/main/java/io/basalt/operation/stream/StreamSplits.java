package io.basalt.operation.stream;

import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.changelog.LookupProducer;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.StreamOptions;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The work of one snapshot in a streaming read, as splits in a fixed order (so a position inside it
 * means the same split on every planning): the snapshot's rows, or its changes. Planning reads file
 * metadata only.
 */
public final class StreamSplits {
  private final FileStoreTable table;
  private final boolean readOverwrite;
  private final boolean fullCompaction;

  public StreamSplits(FileStoreTable table) {
    this.table = table;
    this.readOverwrite = table.options().get(StreamOptions.STREAMING_READ_OVERWRITE);
    this.fullCompaction =
        ChangelogOptions.FULL_COMPACTION.equals(ChangelogProducerGuard.producer(table.options()));
  }

  /**
   * Every live row of {@code snapshot}, each key once, as inserts. With the {@code full-compaction}
   * producer, only the top level's rows, as in Paimon: the rows below it reach the changelog at the
   * next full compaction, and would otherwise come twice.
   */
  public List<IncrementalSplit> rows(Snapshot snapshot) {
    List<IncrementalSplit> splits = new ArrayList<>();
    for (DataSplit split : table.newScan().withSnapshot(snapshot).plan().splits()) {
      if (fullCompaction) {
        split = FullCompactionStream.topLevelOnly(split, table);
        if (split.files().isEmpty()) {
          continue;
        }
      }
      // compared with nothing, a bucket's merged rows all come out as inserts
      splits.add(
          new IncrementalSplit(split.partition(), split.bucket(), List.of(), List.of(split), true));
    }
    return splits;
  }

  /**
   * The changes {@code snapshot} made, one split per bucket: from its changelog manifest list when
   * it has one (and the table's producer writes it), else its delta files (each read with its rows'
   * own kinds). COMPACT snapshots change no rows; OVERWRITE snapshots count only with {@code
   * streaming-read-overwrite}.
   */
  public List<IncrementalSplit> changes(Snapshot snapshot) {
    if (LookupProducer.enabled(table.options())) {
      // the lookup changelog lands with the promotions (COMPACT snapshots): it is the only change
      return snapshot.changelogManifestList() == null ? List.of() : changelogSplits(snapshot);
    }
    if (fullCompaction) {
      // the changes are the changelog of the full compactions, in COMPACT snapshots only
      return FullCompactionStream.hasChanges(snapshot) ? changelogSplits(snapshot) : List.of();
    }
    if (snapshot.commitKind() == CommitKind.COMPACT
        || (snapshot.commitKind() == CommitKind.OVERWRITE && !readOverwrite)) {
      return List.of();
    }
    if (snapshot.changelogManifestList() != null) {
      return changelogSplits(snapshot);
    }
    return deltaSplits(snapshot);
  }

  /**
   * The snapshot's changelog files, one split per bucket, read as written (a key may come several
   * times, e.g. -U then +U), for every producer; a table without producer never reads changelog
   * files, as in Paimon.
   */
  private List<IncrementalSplit> changelogSplits(Snapshot snapshot) {
    String producer = ChangelogProducerGuard.producer(table.options());
    if (ChangelogOptions.NONE.equals(producer)) {
      return deltaSplits(snapshot);
    }
    // the incremental changelog read of the one-snapshot range (id - 1, id]
    return new IncrementalScan(table)
        .plan(
            new IncrementalRange(
                IncrementalRange.Mode.CHANGELOG, snapshot.id() - 1, null, snapshot));
  }

  private List<IncrementalSplit> deltaSplits(Snapshot snapshot) {
    ManifestFiles manifests = table.manifestFiles();
    Map<List<Object>, List<DataFileMeta>> files = new LinkedHashMap<>();
    Map<List<Object>, ManifestEntry> first = new LinkedHashMap<>();
    for (ManifestFileMeta meta : manifests.readManifestList(snapshot.deltaManifestList())) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() != FileKind.ADD) {
            continue;
          }
          List<Object> key = List.of(entry.partition(), entry.bucket());
          first.putIfAbsent(key, entry);
          // each added file is a sorted run of its own: level 0 merges them by sequence
          files.computeIfAbsent(key, k -> new ArrayList<>()).add(entry.file().withLevel(0));
        }
      }
    }
    List<IncrementalSplit> splits = new ArrayList<>();
    for (Map.Entry<List<Object>, List<DataFileMeta>> bucket : files.entrySet()) {
      ManifestEntry entry = first.get(bucket.getKey());
      DataSplit split =
          new DataSplit(
              snapshot.id(),
              entry.partition(),
              entry.bucket(),
              entry.totalBuckets(),
              bucket.getValue(),
              false);
      splits.add(
          new IncrementalSplit(
              entry.partition(), entry.bucket(), List.of(), List.of(split), false));
    }
    return splits;
  }
}

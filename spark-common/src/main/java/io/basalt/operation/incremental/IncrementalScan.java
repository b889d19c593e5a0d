package io.basalt.operation.incremental;

import io.basalt.changelog.ChangelogManager;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.predicate.Predicate;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * Plans an incremental read into {@link IncrementalSplit}s. Planning holds file metadata only: a
 * delta lists the files its snapshots added, a diff the splits of its two ends.
 */
public final class IncrementalScan {
  private final FileStoreTable table;
  @Nullable private Predicate partitionFilter;

  public IncrementalScan(FileStoreTable table) {
    this.table = table;
  }

  /**
   * Reads only the partitions whose values satisfy {@code predicate}, a predicate over partition
   * columns only; returns this.
   */
  public IncrementalScan withPartitionFilter(@Nullable Predicate predicate) {
    this.partitionFilter = predicate;
    return this;
  }

  /** A snapshot scan pruned to the partitions of {@link #withPartitionFilter}. */
  private List<DataSplit> splitsOf(Snapshot snapshot) {
    return table.newScan().withSnapshot(snapshot).withFilter(partitionFilter).plan().splits();
  }

  /** The splits of {@code range}. */
  public List<IncrementalSplit> plan(IncrementalRange range) {
    if (range.isEmpty()) {
      return List.of();
    }
    return switch (range.mode()) {
      case DELTA -> delta(range.startId(), range.end(), false);
      case CHANGELOG -> delta(range.startId(), range.end(), true);
      case DIFF -> diff(range.start(), range.end());
    };
  }

  /**
   * The splits of one snapshot read as changes: each bucket's files merged with retractions kept,
   * so a delete not yet compacted away shows as a -D row.
   */
  public List<IncrementalSplit> planSnapshot(Optional<Snapshot> snapshot) {
    if (snapshot.isEmpty()) {
      return List.of();
    }
    List<IncrementalSplit> splits = new ArrayList<>();
    for (DataSplit split : splitsOf(snapshot.get())) {
      splits.add(
          new IncrementalSplit(
              split.partition(), split.bucket(), List.of(), List.of(split), false));
    }
    return splits;
  }

  /**
   * The files the APPEND snapshots in (startId, end] added, one split per bucket; with {@code
   * changelog}, the changelog files every snapshot in the range wrote, in commit order.
   */
  private List<IncrementalSplit> delta(long startId, Snapshot end, boolean changelog) {
    SnapshotManager snapshots = table.snapshotManager();
    ChangelogManager changelogs = table.changelogManager();
    ManifestFiles manifests = table.manifestFiles();
    Map<List<Object>, List<DataFileMeta>> files = new LinkedHashMap<>();
    Map<List<Object>, ManifestEntry> firstEntry = new LinkedHashMap<>();
    PartitionFilter partitions =
        partitionFilter == null
            ? null
            : new PartitionFilter(partitionFilter, table.partitionType());
    for (long id = startId + 1; id <= end.id(); id++) {
      long current = id;
      // an expired snapshot's changes may live on in its decoupled changelog
      Snapshot snapshot =
          id == end.id()
              ? end
              : ChangelogManager.snapshotOrChangelog(snapshots, changelogs, id)
                  .orElseGet(() -> snapshots.snapshot(current));
      String list = changelog ? snapshot.changelogManifestList() : snapshot.deltaManifestList();
      // compactions and overwrites rewrite data that earlier snapshots added: no new changes
      if (list == null || (!changelog && snapshot.commitKind() != CommitKind.APPEND)) {
        continue;
      }
      for (ManifestFileMeta meta : manifests.readManifestList(list)) {
        try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
          while (it.hasNext()) {
            ManifestEntry entry = it.next();
            if (entry.kind() != FileKind.ADD
                || (partitions != null && !partitions.matches(entry.partition()))) {
              continue;
            }
            List<Object> key = List.of(entry.partition(), entry.bucket());
            firstEntry.putIfAbsent(key, entry);
            // each added file is a sorted run of its own: level 0 merges them by sequence
            files.computeIfAbsent(key, k -> new ArrayList<>()).add(entry.file().withLevel(0));
          }
        }
      }
    }
    List<IncrementalSplit> splits = new ArrayList<>();
    for (Map.Entry<List<Object>, List<DataFileMeta>> bucket : files.entrySet()) {
      ManifestEntry first = firstEntry.get(bucket.getKey());
      DataSplit split =
          new DataSplit(
              end.id(),
              first.partition(),
              first.bucket(),
              first.totalBuckets(),
              bucket.getValue(),
              false);
      splits.add(
          new IncrementalSplit(
              first.partition(), first.bucket(), List.of(), List.of(split), false, changelog));
    }
    return splits;
  }

  /**
   * Pairs the buckets of the two ends. A partition whose bucket count differs between them is
   * compared as a whole: its buckets, each sorted by key, are merged into one sorted stream per
   * end.
   */
  private List<IncrementalSplit> diff(Snapshot start, Snapshot end) {
    Map<BinaryRow, List<DataSplit>> before =
        start == null ? Map.of() : byPartition(splitsOf(start));
    Map<BinaryRow, List<DataSplit>> after = byPartition(splitsOf(end));
    Set<BinaryRow> partitions = new LinkedHashSet<>(before.keySet());
    partitions.addAll(after.keySet());
    List<IncrementalSplit> splits = new ArrayList<>();
    for (BinaryRow partition : partitions) {
      List<DataSplit> old = before.getOrDefault(partition, List.of());
      List<DataSplit> now = after.getOrDefault(partition, List.of());
      if (!old.isEmpty()
          && !now.isEmpty()
          && old.get(0).totalBuckets() != now.get(0).totalBuckets()) {
        splits.add(new IncrementalSplit(partition, -1, old, now, true));
        continue;
      }
      TreeMap<Integer, DataSplit[]> byBucket = new TreeMap<>();
      for (DataSplit split : old) {
        byBucket.computeIfAbsent(split.bucket(), b -> new DataSplit[2])[0] = split;
      }
      for (DataSplit split : now) {
        byBucket.computeIfAbsent(split.bucket(), b -> new DataSplit[2])[1] = split;
      }
      for (Map.Entry<Integer, DataSplit[]> bucket : byBucket.entrySet()) {
        DataSplit[] pair = bucket.getValue();
        splits.add(
            new IncrementalSplit(
                partition,
                bucket.getKey(),
                pair[0] == null ? List.of() : List.of(pair[0]),
                pair[1] == null ? List.of() : List.of(pair[1]),
                true));
      }
    }
    return splits;
  }

  private static Map<BinaryRow, List<DataSplit>> byPartition(List<DataSplit> splits) {
    Map<BinaryRow, List<DataSplit>> result = new LinkedHashMap<>();
    for (DataSplit split : splits) {
      result.computeIfAbsent(split.partition(), p -> new ArrayList<>()).add(split);
    }
    return result;
  }
}

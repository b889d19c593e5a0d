package io.basalt.operation.scan;

import io.basalt.blob.BlobColumns;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.manifest.DataFileMeta;
import io.basalt.table.DataSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs splits into input partitions of about a target size, so a scan's parallelism follows its
 * data rather than its bucket count: a split that reads its files one by one (raw convertible) is
 * cut between files into pieces of the target size, and small splits share an input partition. A
 * split that needs a merge stays whole. Each file weighs at least the open-file cost.
 */
public final class SplitPacker {
  private final long targetSize;
  private final long openFileCost;

  public SplitPacker(long targetSize, long openFileCost) {
    this.targetSize = Math.max(1, targetSize);
    this.openFileCost = Math.max(0, openFileCost);
  }

  /** The input partitions, each a list of splits read one after another. */
  public List<List<DataSplit>> pack(List<DataSplit> splits) {
    List<List<DataSplit>> groups = new ArrayList<>();
    List<DataSplit> group = new ArrayList<>();
    long groupWeight = 0;
    for (DataSplit split : splits) {
      for (DataSplit piece : cut(split)) {
        long weight = weight(piece);
        if (!group.isEmpty() && groupWeight + weight > targetSize) {
          groups.add(group);
          group = new ArrayList<>();
          groupWeight = 0;
        }
        group.add(piece);
        groupWeight += weight;
      }
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    return groups;
  }

  private long weight(DataSplit split) {
    long weight = 0;
    for (DataFileMeta file : split.files()) {
      weight += Math.max(file.fileSize(), openFileCost);
    }
    return weight;
  }

  /** A raw-convertible split cut between files into pieces of about the target size. */
  private List<DataSplit> cut(DataSplit split) {
    if (!split.rawConvertible() || split.files().size() < 2) {
      return List.of(split);
    }
    List<DataSplit> pieces = new ArrayList<>();
    List<DataFileMeta> files = new ArrayList<>();
    List<DeletionFile> deletions = new ArrayList<>();
    long weight = 0;
    for (int i = 0; i < split.files().size(); i++) {
      DataFileMeta file = split.files().get(i);
      long fileWeight = Math.max(file.fileSize(), openFileCost);
      // a data file's blob files follow it (BlobColumns.arrange) and stay in its piece
      boolean blob = BlobColumns.isBlobFile(file.fileName());
      if (!files.isEmpty() && !blob && weight + fileWeight > targetSize) {
        pieces.add(piece(split, files, deletions));
        files = new ArrayList<>();
        deletions = new ArrayList<>();
        weight = 0;
      }
      files.add(file);
      deletions.add(split.deletionFile(i));
      weight += fileWeight;
    }
    pieces.add(piece(split, files, deletions));
    return pieces;
  }

  private static DataSplit piece(
      DataSplit split, List<DataFileMeta> files, List<DeletionFile> deletions) {
    return new DataSplit(
        split.snapshotId(),
        split.partition(),
        split.bucket(),
        split.totalBuckets(),
        files,
        true,
        split.deletionFiles().isEmpty() ? List.of() : deletions);
  }
}

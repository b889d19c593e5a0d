package io.basalt.operation.incremental;

import io.basalt.data.BinaryRow;
import io.basalt.table.DataSplit;
import java.io.Serializable;
import java.util.List;

/**
 * The changes of one (partition, bucket), or of a whole partition whose bucket count differs
 * between the two ends of a diff.
 *
 * @param bucket the bucket, or -1 for a whole partition
 * @param before the splits of the start snapshot a diff compares against (empty otherwise)
 * @param after the splits of the end snapshot a diff compares, or the one split whose files a delta
 *     (or a change read of one snapshot) merges
 * @param diff whether the rows are the per-key difference of {@code before} and {@code after}
 * @param changelog whether {@code after}'s one split holds changelog files, read as they are, file
 *     after file in commit order
 */
public record IncrementalSplit(
    BinaryRow partition,
    int bucket,
    List<DataSplit> before,
    List<DataSplit> after,
    boolean diff,
    boolean changelog)
    implements Serializable {
  public IncrementalSplit {
    before = List.copyOf(before);
    after = List.copyOf(after);
  }

  /** A split of data files. */
  public IncrementalSplit(
      BinaryRow partition,
      int bucket,
      List<DataSplit> before,
      List<DataSplit> after,
      boolean diff) {
    this(partition, bucket, before, after, diff, false);
  }

  /** An estimate of the rows read, for statistics. */
  public long rowCount() {
    long rows = 0;
    for (DataSplit split : before) {
      rows += split.rowCount();
    }
    for (DataSplit split : after) {
      rows += split.rowCount();
    }
    return rows;
  }

  public long sizeInBytes() {
    long size = 0;
    for (DataSplit split : before) {
      size += split.sizeInBytes();
    }
    for (DataSplit split : after) {
      size += split.sizeInBytes();
    }
    return size;
  }
}

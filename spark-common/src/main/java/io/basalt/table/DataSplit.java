package io.basalt.table;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import java.io.Serializable;
import java.util.List;

/**
 * Files of one (partition, bucket) at one snapshot, read together: for a primary-key table the
 * sorted runs that a read merges.
 *
 * @param rawConvertible whether the files can be read one by one without merging: no key can occur
 *     twice and no row is a retraction
 */
public record DataSplit(
    long snapshotId,
    BinaryRow partition,
    int bucket,
    int totalBuckets,
    List<DataFileMeta> files,
    boolean rawConvertible)
    implements Serializable {
  public DataSplit {
    files = List.copyOf(files);
  }

  public long rowCount() {
    long rows = 0;
    for (DataFileMeta file : files) {
      rows += file.rowCount();
    }
    return rows;
  }

  public long sizeInBytes() {
    long size = 0;
    for (DataFileMeta file : files) {
      size += file.fileSize();
    }
    return size;
  }
}

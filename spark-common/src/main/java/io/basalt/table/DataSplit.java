package io.basalt.table;

import io.basalt.blob.BlobColumns;
import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.manifest.DataFileMeta;
import io.basalt.utils.Check;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;

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
    boolean rawConvertible,
    List<DeletionFile> deletionFiles)
    implements Serializable {
  public DataSplit {
    files = List.copyOf(files);
    // null entries mean "no deletion vector", so List.copyOf cannot be used
    deletionFiles = Collections.unmodifiableList(new ArrayList<>(deletionFiles));
    Check.argument(
        deletionFiles.isEmpty() || deletionFiles.size() == files.size(),
        "%s deletion files for %s data files",
        deletionFiles.size(),
        files.size());
  }

  /** A split without deletion vectors. */
  public DataSplit(
      long snapshotId,
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      List<DataFileMeta> files,
      boolean rawConvertible) {
    this(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, List.of());
  }

  /** The deletion vector of file {@code index}, or null. */
  @Nullable
  public DeletionFile deletionFile(int index) {
    return deletionFiles.isEmpty() ? null : deletionFiles.get(index);
  }

  /** Whether any file has a deletion vector. */
  public boolean hasDeletionVectors() {
    for (DeletionFile file : deletionFiles) {
      if (file != null) {
        return true;
      }
    }
    return false;
  }

  public long rowCount() {
    long rows = 0;
    for (DataFileMeta file : files) {
      // a .blob file holds a column of its data file's rows, not rows of its own
      if (!BlobColumns.isBlobFile(file.fileName())) {
        rows += file.rowCount();
      }
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

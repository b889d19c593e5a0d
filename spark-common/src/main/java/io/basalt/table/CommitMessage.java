package io.basalt.table;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import java.io.Serializable;
import java.util.List;

/**
 * What one bucket writer produced in a write: new files of a (partition, bucket), handed from a
 * task to the driver's commit.
 *
 * @param totalBuckets the bucket count the files were written with
 */
public record CommitMessage(
    BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> newFiles)
    implements Serializable {
  public CommitMessage {
    newFiles = List.copyOf(newFiles);
  }
}

package io.basalt.spark.read;

import io.basalt.table.DataSplit;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** The splits one task reads, one after another. */
public sealed interface SparkInputPartition extends InputPartition
    permits PackedInputPartition, GroupedInputPartition {
  List<DataSplit> splits();

  /**
   * The bytes of the files this partition reads, as the manifests record them: an estimate of the
   * input from metadata, not of the decoded rows. The {@code RepartitionLargeBlobScan} rule sizes
   * scans by it.
   */
  default long fileBytes() {
    long bytes = 0;
    for (DataSplit split : splits()) {
      bytes += split.sizeInBytes();
    }
    return bytes;
  }
}

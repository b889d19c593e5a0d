package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes the rows of a bucket's files, in their order, into new compaction output files: the part
 * the append and blob compactions share. The new files start at the inputs' lowest sequence number
 * and are deleted again if reading or writing fails.
 */
final class CompactedFiles {
  private CompactedFiles() {}

  /**
   * @param rows opens the rows to copy from the split of {@code files}
   */
  static List<DataFileMeta> write(
      FileStoreTable table,
      WriteContext context,
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      List<DataFileMeta> files,
      Function<DataSplit, CloseableIterator<InternalRow>> rows) {
    long firstSequence = Long.MAX_VALUE;
    for (DataFileMeta file : files) {
      firstSequence = Math.min(firstSequence, file.minSequenceNumber());
    }
    RollingDataFileWriter writer =
        new RollingDataFileWriter(
            context,
            table.dataFilePaths().bucketDir(partition, bucket),
            0,
            null,
            firstSequence,
            DataFileMeta.SOURCE_COMPACT);
    DataSplit split = new DataSplit(0, partition, bucket, totalBuckets, files, true);
    try (CloseableIterator<InternalRow> input = rows.apply(split)) {
      while (input.hasNext()) {
        writer.write(input.next());
      }
      return writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
  }
}

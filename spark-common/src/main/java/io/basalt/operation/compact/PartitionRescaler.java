package io.basalt.operation.compact;

import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.TableOptions;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Rewrites the rows of one partition into a new number of buckets (the work of one {@code CALL
 * sys.rescale} task): reads what a batch read of the partition returns, split by split, and writes
 * it as an overwrite with the new count. Memory: one split's read plus the writers' spillable
 * buffers. The caller commits the result in place of the partition's old bucket files.
 */
public final class PartitionRescaler {
  private final FileStoreTable table;
  private final int bucketCount;

  /**
   * @param bucketCount the new count, at least 1
   */
  public PartitionRescaler(FileStoreTable table, int bucketCount) {
    this.table = table;
    this.bucketCount = bucketCount;
  }

  /**
   * Rewrites {@code splits}, the read splits of one partition at snapshot {@code snapshotId}.
   *
   * @return the new files, in buckets {@code 0..bucketCount-1} with {@code _TOTAL_BUCKETS} set to
   *     the new count
   */
  public List<CommitMessage> rescale(List<DataSplit> splits, long snapshotId) {
    FileStoreTable target =
        table.copyWithOptions(Map.of(TableOptions.BUCKET.key(), String.valueOf(bucketCount)));
    SplitRead read = table.newRead(table.rowType());
    TableWrite write = target.newWrite(snapshotId, true);
    try {
      for (DataSplit split : splits) {
        try (CloseableIterator<InternalRow> rows = read.read(split)) {
          while (rows.hasNext()) {
            write.write(rows.next());
          }
        }
      }
      return write.prepareCommit();
    } catch (RuntimeException e) {
      write.abort();
      throw e;
    }
  }
}

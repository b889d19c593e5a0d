package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.rowtracking.RowTracking;
import io.basalt.rowtracking.TrackedRows;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Merges small files of an append-table bucket into files of the target size, rows unchanged. On a
 * row-tracking table the new files store every row's id and sequence number, so both survive.
 */
public final class AppendCompactRewriter {
  private final FileStoreTable table;
  private final WriteContext context;
  private final SplitRead read;
  private final boolean tracking;

  public AppendCompactRewriter(FileStoreTable table) {
    this.table = table;
    this.tracking = RowTracking.enabled(table.options());
    WriteContext plain = WriteContext.of(table);
    this.context =
        tracking ? plain.withRowType(RowTracking.withTrackingColumns(table.rowType())) : plain;
    this.read = table.newRead(table.rowType());
  }

  /** The files that replace {@code files}, written in their order. */
  public List<DataFileMeta> rewrite(
      BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files) {
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
    try (CloseableIterator<InternalRow> rows =
        tracking ? new TrackedRows(read, split) : read.read(split)) {
      while (rows.hasNext()) {
        writer.write(rows.next());
      }
      return writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
  }
}

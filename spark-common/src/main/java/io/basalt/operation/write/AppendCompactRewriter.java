package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.rowtracking.RowTracking;
import io.basalt.rowtracking.TrackedRows;
import io.basalt.table.FileStoreTable;
import java.util.List;

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
    return CompactedFiles.write(
        table,
        context,
        partition,
        bucket,
        totalBuckets,
        files,
        split -> tracking ? new TrackedRows(read, split) : read.read(split));
  }
}

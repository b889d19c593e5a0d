package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.data.RowComparator;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.CompactionOptions;
import io.basalt.rowtracking.RowTracking;
import io.basalt.rowtracking.TrackedRows;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Re-clusters one append-table bucket (the task of an {@code order}/{@code zorder} compaction):
 * reads every row of the split, sorts them, writes them as new files and returns a compaction that
 * replaces all the split's files with them. The rows of one bucket are sorted in memory.
 * Serializable; one instance is shared by all tasks of a job.
 */
final class SortRewrite implements Serializable {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  private final long baseSnapshotId;
  private final boolean zorder;
  private final int[] ordinals;
  private final List<DataType> types;

  SortRewrite(FileStoreTable table, long baseSnapshotId, boolean zorder, List<String> orderBy) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.zorder = zorder;
    StructType rowType = table.rowType();
    this.ordinals = new int[orderBy.size()];
    this.types = new ArrayList<>();
    for (int i = 0; i < ordinals.length; i++) {
      ordinals[i] = rowType.fieldIndex(orderBy.get(i));
      types.add(rowType.fields()[ordinals[i]].dataType());
    }
  }

  /** Rewrites {@code split} sorted; the result replaces every file of the split. */
  CommitMessage rewrite(DataSplit split) {
    List<InternalRow> rows = sorted(readAll(split));
    // write-only: the new files must stay exactly as sorted, not be merged again by the writer
    FileStoreTable writeTable =
        table.copyWithOptions(Map.of(CompactionOptions.WRITE_ONLY.key(), "true"));
    List<CommitMessage> written;
    // a row-tracking table's rows keep their ids and sequence numbers, stored in the new files
    TableWrite write = new TableWrite(writeTable, baseSnapshotId, false, tracking(), false);
    try {
      for (InternalRow row : rows) {
        write.write(row);
      }
      written = write.prepareCommit();
    } catch (RuntimeException e) {
      write.abort();
      throw e;
    }
    List<DataFileMeta> after = new ArrayList<>();
    for (CommitMessage message : written) {
      if (!message.partition().equals(split.partition()) || message.bucket() != split.bucket()) {
        table.newCommit("sort-compact-cleanup").abort(written);
        throw new BasaltException(
            String.format(
                "Sorted rows of bucket %s of partition %s of table %s were routed to bucket %s of"
                    + " partition %s; the table's bucket layout changed during the compaction",
                split.bucket(),
                split.partition(),
                table.name(),
                message.bucket(),
                message.partition()));
      }
      after.addAll(message.newFiles());
    }
    return new CommitMessage(
        split.partition(), split.bucket(), split.totalBuckets(), List.of(), split.files(), after);
  }

  private List<InternalRow> readAll(DataSplit split) {
    List<InternalRow> rows = new ArrayList<>();
    io.basalt.operation.read.SplitRead read = table.newRead(table.rowType());
    try (CloseableIterator<InternalRow> it =
        tracking() ? new TrackedRows(read, split) : read.read(split)) {
      while (it.hasNext()) {
        rows.add(it.next().copy()); // the reader reuses its row
      }
    }
    return rows;
  }

  private boolean tracking() {
    return RowTracking.enabled(table.options());
  }

  private List<InternalRow> sorted(List<InternalRow> rows) {
    if (zorder) {
      ZOrder z = new ZOrder(ordinals, types);
      List<Keyed<byte[]>> keyed = new ArrayList<>(rows.size());
      for (InternalRow row : rows) {
        keyed.add(new Keyed<>(z.zValue(row), row));
      }
      keyed.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
      return unwrap(keyed);
    }
    RowComparator comparator = new RowComparator(types);
    List<Keyed<InternalRow>> keyed = new ArrayList<>(rows.size());
    for (InternalRow row : rows) {
      Object[] values = new Object[ordinals.length];
      for (int i = 0; i < ordinals.length; i++) {
        values[i] = row.isNullAt(ordinals[i]) ? null : row.get(ordinals[i], types.get(i));
      }
      keyed.add(new Keyed<>(new GenericInternalRow(values), row));
    }
    keyed.sort(Comparator.comparing(Keyed::key, comparator));
    return unwrap(keyed);
  }

  private static <K> List<InternalRow> unwrap(List<Keyed<K>> keyed) {
    List<InternalRow> rows = new ArrayList<>(keyed.size());
    for (Keyed<K> k : keyed) {
      rows.add(k.row());
    }
    return rows;
  }

  private record Keyed<K>(K key, InternalRow row) {}
}

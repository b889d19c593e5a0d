package io.basalt.spark.read;

import io.basalt.blob.BlobColumns;
import io.basalt.data.ProjectedRow;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.rowtracking.RowTracking;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The row path's rows with metadata columns: each data row joined with a row of its metadata
 * columns (both views are reused between rows).
 */
final class MetadataRows {
  private MetadataRows() {}

  /** {@code rows}, any rows of the split (merged or not), joined with per-split metadata. */
  static CloseableIterator<InternalRow> perSplit(
      CloseableIterator<InternalRow> rows, MetadataValues metadata) {
    JoinedRow joined = new JoinedRow();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public InternalRow next() {
        InternalRow row = rows.next();
        metadata.setRowValues(row);
        return joined.apply(row, metadata.row());
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }

  /**
   * The rows of a split whose rows each come from one data file (an append split or a raw
   * convertible one), read file after file, joined with metadata that includes the file path and
   * the row's position in its file. Positions count every row of the file, so files are read whole
   * and the rows deletion vectors delete are skipped here, after counting. For row-tracking
   * metadata, files are read with their stored tracking columns after the read columns, and the
   * rows handed on are cut back to the read columns.
   */
  static CloseableIterator<InternalRow> perFile(
      FileStoreTable table,
      SplitRead read,
      DataSplit split,
      MetadataValues metadata,
      boolean tracking) {
    return new PerFile(table, read, split, metadata, tracking);
  }

  private static final class PerFile implements CloseableIterator<InternalRow> {
    private final FileStoreTable table;
    private final SplitRead read;
    private final DataSplit split;
    private final MetadataValues metadata;
    private final JoinedRow joined = new JoinedRow();
    private final StructType fileSchema;
    private final int columns;
    @Nullable private final ProjectedRow readColumns;
    private DataFileMeta file;
    private int nextFile;
    @Nullable private CloseableIterator<InternalRow> current;
    @Nullable private DeletionVector deleted;

    /** The position in the current file of the row read last. */
    private long position;

    @Nullable private InternalRow next;

    PerFile(
        FileStoreTable table,
        SplitRead read,
        DataSplit split,
        MetadataValues metadata,
        boolean tracking) {
      this.table = table;
      this.read = read;
      this.split = split;
      this.metadata = metadata;
      StructType readType = read.readType();
      this.columns = readType.size();
      if (tracking) {
        this.fileSchema = RowTracking.withTrackingColumns(readType);
        DataType[] types = new DataType[columns];
        int[] indices = new int[columns];
        for (int i = 0; i < columns; i++) {
          types[i] = readType.fields()[i].dataType();
          indices[i] = i;
        }
        this.readColumns = new ProjectedRow(types, indices);
      } else {
        this.fileSchema = readType;
        this.readColumns = null;
      }
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        if (current != null && current.hasNext()) {
          InternalRow row = current.next();
          position++;
          if (deleted == null || !deleted.isDeleted(position)) {
            next = row;
          }
          continue;
        }
        closeCurrent();
        if (nextFile >= split.files().size()) {
          return false;
        }
        int index = nextFile++;
        file = split.files().get(index);
        if (BlobColumns.isBlobFile(file.fileName())) {
          continue; // read with its data file
        }
        deleted = DeletionVectors.load(table, file, split.deletionFile(index));
        position = -1;
        metadata.setFile(read.path(split, file).toString());
        // no deletion vector: this iterator skips deleted rows itself, counting positions
        current = read.open(split, file, fileSchema, null);
      }
      return true;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      metadata.setRowIndex(position);
      InternalRow row = next;
      if (readColumns != null) {
        metadata.setRowTracking(
            RowTracking.rowId(row, columns, file, position),
            RowTracking.sequenceNumber(row, columns + 1, file));
        row = readColumns.replace(row);
      }
      metadata.setRowValues(row);
      next = null;
      return joined.apply(row, metadata.row());
    }

    private void closeCurrent() {
      if (current != null) {
        CloseableIterator<InternalRow> closing = current;
        current = null;
        closing.close();
      }
    }

    @Override
    public void close() {
      closeCurrent();
    }
  }
}

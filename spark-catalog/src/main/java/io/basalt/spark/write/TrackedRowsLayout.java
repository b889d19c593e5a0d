package io.basalt.spark.write;

import io.basalt.rowtracking.RowTracking;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.types.StructType;

/**
 * Where a copy-on-write rewrite of a row-tracking table finds each row's {@code _ROW_ID} and {@code
 * _SEQUENCE_NUMBER}: in the metadata row Spark hands the writer next to the data row. The writer
 * stores both after the table columns (see {@link RowTracking}).
 */
record TrackedRowsLayout(int rowIdIndex, int sequenceNumberIndex) implements Serializable {

  /** The layout of {@code info}'s metadata rows, or null when the write does not track rows. */
  @Nullable
  static TrackedRowsLayout of(FileStoreTable table, LogicalWriteInfo info) {
    if (!RowTracking.enabled(table.options()) || info.metadataSchema().isEmpty()) {
      return null;
    }
    StructType metadata = info.metadataSchema().get();
    if (metadata.getFieldIndex(RowTracking.ROW_ID).isEmpty()
        || metadata.getFieldIndex(RowTracking.SEQUENCE_NUMBER).isEmpty()) {
      return null;
    }
    return new TrackedRowsLayout(
        metadata.fieldIndex(RowTracking.ROW_ID), metadata.fieldIndex(RowTracking.SEQUENCE_NUMBER));
  }

  Joiner newJoiner() {
    return new Joiner(this);
  }

  /** Joins data rows with their tracking values; the returned row is reused. */
  static final class Joiner {
    private final TrackedRowsLayout layout;
    private final GenericInternalRow tracking = new GenericInternalRow(2);
    private final JoinedRow joined = new JoinedRow();

    private Joiner(TrackedRowsLayout layout) {
      this.layout = layout;
    }

    /** {@code row} followed by the id and sequence number in {@code metadata} (null: none). */
    InternalRow join(@Nullable InternalRow metadata, InternalRow row) {
      copy(metadata, layout.rowIdIndex, 0);
      copy(metadata, layout.sequenceNumberIndex, 1);
      return joined.apply(row, tracking);
    }

    private void copy(@Nullable InternalRow metadata, int from, int to) {
      if (metadata == null || metadata.isNullAt(from)) {
        tracking.setNullAt(to);
      } else {
        tracking.setLong(to, metadata.getLong(from));
      }
    }
  }
}

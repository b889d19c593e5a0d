package io.basalt.operation.incremental;

import io.basalt.data.RowKind;
import io.basalt.utils.CloseableIterator;
import org.apache.spark.sql.catalyst.InternalRow;

/** Rows of a change read, each with its row kind. Rows are reused between calls. */
public interface ChangeIterator extends CloseableIterator<InternalRow> {
  /** The kind of the row {@link #next()} returned last. */
  RowKind kind();
}

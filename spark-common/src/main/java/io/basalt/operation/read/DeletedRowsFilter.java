package io.basalt.operation.read;

import io.basalt.deletionvectors.DeletionVector;
import io.basalt.utils.CloseableIterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Skips the rows of one data file that its deletion vector marks deleted, counting positions as
 * rows go by; the file must be read whole and in order.
 */
final class DeletedRowsFilter implements CloseableIterator<InternalRow> {
  private final CloseableIterator<InternalRow> rows;
  private final DeletionVector deleted;
  private long position = -1;
  private InternalRow next;

  DeletedRowsFilter(CloseableIterator<InternalRow> rows, DeletionVector deleted) {
    this.rows = rows;
    this.deleted = deleted;
  }

  /** The position in the file of the row returned last. */
  long position() {
    return position;
  }

  @Override
  public boolean hasNext() {
    while (next == null && rows.hasNext()) {
      InternalRow row = rows.next();
      position++;
      if (!deleted.isDeleted(position)) {
        next = row;
      }
    }
    return next != null;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = next;
    next = null;
    return row;
  }

  @Override
  public void close() {
    rows.close();
  }
}

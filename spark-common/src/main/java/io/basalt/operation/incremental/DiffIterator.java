package io.basalt.operation.incremental;

import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.utils.CloseableIterator;
import java.util.Comparator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;

/**
 * A merge join of two key-sorted streams of merged key-value rows, the data of a bucket (or
 * partition) at the start and at the end of a range: a key only at the end is +I, only at the start
 * -D, at both with other values -U (old) then +U (new); unchanged keys yield nothing. Memory is one
 * row per side. A returned row is the side's own and valid until the next call.
 */
final class DiffIterator implements ChangeIterator {
  private final CloseableIterator<InternalRow> before;
  private final CloseableIterator<InternalRow> after;
  private final Comparator<InternalRow> keyOrder;
  private final ProjectedRow beforeValues;
  private final ProjectedRow afterValues;
  private final UnsafeProjection beforeBytes;
  private final UnsafeProjection afterBytes;
  private InternalRow a;
  private InternalRow b;
  private boolean advanceA = true;
  private boolean advanceB = true;
  private boolean updateAfterPending;
  private InternalRow next;
  private RowKind nextKind;
  private RowKind kind;

  /**
   * @param valueType the value columns of the key-value rows (all table columns, so a change in any
   *     column counts)
   */
  DiffIterator(
      CloseableIterator<InternalRow> before,
      CloseableIterator<InternalRow> after,
      KeyValueLayout layout,
      StructType valueType) {
    this.before = before;
    this.after = after;
    this.keyOrder = layout.keyComparator();
    org.apache.spark.sql.types.DataType[] types =
        new org.apache.spark.sql.types.DataType[valueType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = valueType.fields()[i].dataType();
    }
    this.beforeValues = ProjectedRow.offset(types, layout.valueOffset());
    this.afterValues = ProjectedRow.offset(types, layout.valueOffset());
    this.beforeBytes = UnsafeProjection.create(valueType);
    this.afterBytes = UnsafeProjection.create(valueType);
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (updateAfterPending) {
      // the -U was handed out; its +U comes now, and both sides move on afterwards
      updateAfterPending = false;
      advanceA = true;
      advanceB = true;
      return emit(b, RowKind.UPDATE_AFTER);
    }
    while (true) {
      if (advanceA) {
        a = before.hasNext() ? before.next() : null;
        advanceA = false;
      }
      if (advanceB) {
        b = after.hasNext() ? after.next() : null;
        advanceB = false;
      }
      if (a == null && b == null) {
        return false;
      }
      int order = a == null ? 1 : b == null ? -1 : keyOrder.compare(a, b);
      if (order < 0) {
        advanceA = true;
        return emit(a, RowKind.DELETE);
      } else if (order > 0) {
        advanceB = true;
        return emit(b, RowKind.INSERT);
      }
      if (sameValues()) {
        advanceA = true;
        advanceB = true;
        continue;
      }
      updateAfterPending = true;
      return emit(a, RowKind.UPDATE_BEFORE);
    }
  }

  private boolean emit(InternalRow row, RowKind rowKind) {
    next = row;
    nextKind = rowKind;
    return true;
  }

  private boolean sameValues() {
    UnsafeRow old = beforeBytes.apply(beforeValues.replace(a));
    UnsafeRow now = afterBytes.apply(afterValues.replace(b));
    return old.equals(now);
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = next;
    kind = nextKind;
    next = null;
    return row;
  }

  @Override
  public RowKind kind() {
    return kind;
  }

  @Override
  public void close() {
    try {
      before.close();
    } finally {
      after.close();
    }
  }
}

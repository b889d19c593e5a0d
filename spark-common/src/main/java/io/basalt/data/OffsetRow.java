package io.basalt.data;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * A view of fields {@code offset..offset+n-1} of another row: the value part of a key-value row.
 * Reused: {@link #replace} points it at the next row.
 */
public final class OffsetRow extends DelegatingRow {
  private final int offset;
  private InternalRow row;

  public OffsetRow(DataType[] types, int offset) {
    super(types);
    this.offset = offset;
  }

  /** Points this view at {@code newRow} and returns it. */
  public OffsetRow replace(InternalRow newRow) {
    this.row = newRow;
    return this;
  }

  @Override
  protected InternalRow row(int ordinal) {
    return row;
  }

  @Override
  protected int index(int ordinal) {
    return ordinal + offset;
  }
}

package io.basalt.data;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;

/** A view of chosen fields of another row, in a chosen order. Reused through {@link #replace}. */
public final class ProjectedRow extends DelegatingRow {
  private final int[] indices;
  private InternalRow row;

  /**
   * @param types the types of the projected fields
   * @param indices for each projected field, its position in the source row
   */
  public ProjectedRow(DataType[] types, int[] indices) {
    super(types);
    this.indices = indices;
  }

  /** Points this view at {@code newRow} and returns it. */
  public ProjectedRow replace(InternalRow newRow) {
    this.row = newRow;
    return this;
  }

  @Override
  protected InternalRow row(int ordinal) {
    return row;
  }

  @Override
  protected int index(int ordinal) {
    return indices[ordinal];
  }
}

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

  /**
   * A view of the {@code types.length} consecutive fields starting at {@code offset} of another
   * row, such as the value part of a key-value row.
   *
   * @param types the types of the viewed fields
   * @param offset the position in the source row of the first viewed field
   */
  public static ProjectedRow offset(DataType[] types, int offset) {
    int[] indices = new int[types.length];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = offset + i;
    }
    return new ProjectedRow(types, indices);
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

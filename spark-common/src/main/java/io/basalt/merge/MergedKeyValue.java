package io.basalt.merge;

import io.basalt.data.DelegatingRow;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * The result row of merge functions that build a new value: key columns and sequence number from
 * the newest version (which the reuse contract of {@link MergeFunction} keeps valid), the kind the
 * function decided, and the value columns from the function's accumulator, except primary-key value
 * columns, which come from the newest version too.
 */
final class MergedKeyValue extends DelegatingRow {
  private final int valueOffset;
  private final int kindIndex;
  private final boolean[] keyValue;
  private final GenericInternalRow values;
  private InternalRow newest;
  private byte kind;

  /**
   * @param types the key-value row's field types
   * @param keyValue for each value column, whether it is a primary-key column
   */
  MergedKeyValue(DataType[] types, int valueOffset, boolean[] keyValue) {
    super(types);
    this.valueOffset = valueOffset;
    this.kindIndex = valueOffset - 1;
    this.keyValue = keyValue.clone();
    this.values = new GenericInternalRow(keyValue.length);
  }

  /** The accumulator: one slot per value column, owned by the merge function. */
  GenericInternalRow values() {
    return values;
  }

  MergedKeyValue replace(InternalRow newestVersion, byte rowKind) {
    this.newest = newestVersion;
    this.kind = rowKind;
    return this;
  }

  @Override
  protected InternalRow row(int ordinal) {
    if (ordinal < valueOffset || keyValue[ordinal - valueOffset]) {
      return newest;
    }
    return values;
  }

  @Override
  protected int index(int ordinal) {
    if (ordinal < valueOffset || keyValue[ordinal - valueOffset]) {
      return ordinal;
    }
    return ordinal - valueOffset;
  }

  @Override
  public boolean isNullAt(int ordinal) {
    return ordinal != kindIndex && super.isNullAt(ordinal);
  }

  @Override
  public byte getByte(int ordinal) {
    return ordinal == kindIndex ? kind : super.getByte(ordinal);
  }

  @Override
  public Object get(int ordinal, DataType dataType) {
    return ordinal == kindIndex ? (Object) kind : super.get(ordinal, dataType);
  }
}

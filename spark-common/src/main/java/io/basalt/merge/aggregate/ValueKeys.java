package io.basalt.merge.aggregate;

import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;

/**
 * Turns values into hashable keys with value equality: the values are written into an owned {@link
 * UnsafeRow}, whose equals and hashCode compare bytes. Works the same for every type (strings,
 * decimals, binaries, structs, arrays, maps), whatever internal form (unsafe or generic) the value
 * came in, and null values get a key too. Used where elements must be matched: collect's distinct
 * and retraction, merge_map keys, nested keys.
 */
final class ValueKeys implements Serializable {
  private static final long serialVersionUID = 1L;

  private final DataType[] types;
  @Nullable private transient UnsafeProjection projection;
  @Nullable private transient GenericInternalRow scratch;

  /** Keys over the tuple of values of {@code types}. */
  ValueKeys(DataType... types) {
    this.types = types.clone();
  }

  /** The key of one value (for keys built over a single type). */
  UnsafeRow keyOf(@Nullable Object value) {
    scratch().update(0, value);
    return project();
  }

  /** The key of the fields {@code ordinals} of {@code row}, in that order. */
  UnsafeRow keyOf(InternalRow row, int[] ordinals) {
    GenericInternalRow values = scratch();
    for (int i = 0; i < ordinals.length; i++) {
      int ordinal = ordinals[i];
      values.update(i, row.isNullAt(ordinal) ? null : row.get(ordinal, types[i]));
    }
    return project();
  }

  private GenericInternalRow scratch() {
    if (scratch == null) {
      scratch = new GenericInternalRow(types.length);
      projection = UnsafeProjection.create(types);
    }
    return scratch;
  }

  private UnsafeRow project() {
    UnsafeRow key = projection.apply(scratch).copy();
    // Do not hold on to the caller's (possibly reused) values.
    for (int i = 0; i < types.length; i++) {
      scratch.setNullAt(i);
    }
    return key;
  }
}

package io.basalt.merge.aggregate;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.DataType;

/** Element access for array and map values, whichever ArrayData implementation holds them. */
final class ArrayValues {
  private ArrayValues() {}

  /** Element {@code i}, or null; a value from an input still points into the input's buffer. */
  @Nullable
  static Object element(ArrayData array, int i, DataType elementType) {
    return array.isNullAt(i) ? null : array.get(i, elementType);
  }
}

package io.basalt.merge.aggregate;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Copies of Spark internal values. Inputs may point into reused row buffers, so anything an
 * aggregator keeps past the call is copied through here; boxed primitives are immutable.
 */
final class Values {
  private Values() {}

  @Nullable
  static Object copy(@Nullable Object value) {
    if (value instanceof UTF8String s) {
      return s.copy();
    } else if (value instanceof Decimal d) {
      return d.clone();
    } else if (value instanceof byte[] bytes) {
      return bytes.clone();
    } else if (value instanceof InternalRow row) {
      return row.copy();
    } else if (value instanceof ArrayData array) {
      return array.copy();
    } else if (value instanceof MapData map) {
      return map.copy();
    }
    return value;
  }
}

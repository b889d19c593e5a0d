package io.basalt.operation.write;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.StructType;

/**
 * The unsafe projections of one write, one per row type, made once instead of once per bucket
 * writer: generating a projection's code costs about a millisecond, and a write that touches 64
 * buckets paid it twice per bucket, every round. Only for the write's own thread (a projection
 * reuses its result row); background compactions make their own. Not thread-safe.
 */
final class SharedProjections {
  private final Map<StructType, UnsafeProjection> byType = new HashMap<>();

  /** The projection encoding rows of {@code type} as UnsafeRows. */
  UnsafeProjection of(StructType type) {
    return byType.computeIfAbsent(type, t -> UnsafeProjection.create(t));
  }

  /** How many projections were generated. */
  int size() {
    return byType.size();
  }
}

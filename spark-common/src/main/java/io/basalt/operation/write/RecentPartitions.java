package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowComparator;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The binary partitions of a write's recent rows. Rows of a primary-key table reach a task
 * clustered by bucket but not sorted, so the rows of a few partitions arrive interleaved;
 * remembering the last few partitions finds a row's partition by comparing values, without encoding
 * it or allocating. A row of a partition not remembered replaces the oldest entry. Not thread-safe.
 */
final class RecentPartitions {
  static final int CAPACITY = 16;

  private final RowComparator order;
  private final BinaryRowCodec codec;
  private final InternalRow[] values = new InternalRow[CAPACITY];
  private final BinaryRow[] binaries = new BinaryRow[CAPACITY];
  private int size;
  private int last;
  private int oldest;
  private long encodings;

  RecentPartitions(RowComparator order, BinaryRowCodec codec) {
    this.order = order;
    this.codec = codec;
  }

  /**
   * The partition of the values {@code partition} holds now; the same instance as long as the
   * partition stays remembered. {@code partition} may be a reused view.
   */
  BinaryRow of(InternalRow partition) {
    if (size > 0 && order.compare(partition, values[last]) == 0) {
      return binaries[last];
    }
    for (int i = 0; i < size; i++) {
      if (i != last && order.compare(partition, values[i]) == 0) {
        last = i;
        return binaries[i];
      }
    }
    int slot;
    if (size < CAPACITY) {
      slot = size++;
    } else {
      slot = oldest;
      oldest = (oldest + 1) % CAPACITY;
    }
    values[slot] = partition.copy();
    binaries[slot] = codec.toBinary(partition);
    encodings++;
    last = slot;
    return binaries[slot];
  }

  /** How many times a partition was encoded: once per partition while at most CAPACITY are live. */
  long encodings() {
    return encodings;
  }
}

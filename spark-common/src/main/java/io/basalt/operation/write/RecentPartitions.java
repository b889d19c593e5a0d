package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The binary partitions of a write's recent rows. Rows of a primary-key table reach a task
 * clustered by bucket but not sorted, so the rows of a few partitions arrive interleaved;
 * remembering the last few partitions finds a row's partition by encoding it into a reused buffer
 * and comparing bytes, without allocating (the encoding is canonical: equal values give equal
 * bytes, as Paimon's partitions compare). A row of a partition not remembered replaces the oldest
 * entry. Not thread-safe.
 */
final class RecentPartitions {
  static final int CAPACITY = 16;

  private final BinaryRowCodec codec;
  private final BinaryRow[] binaries = new BinaryRow[CAPACITY];
  private int size;
  private int last;
  private int oldest;
  private long encodings;

  RecentPartitions(BinaryRowCodec codec) {
    this.codec = codec;
  }

  /**
   * The partition of the values {@code partition} holds now; the same instance as long as the
   * partition stays remembered. {@code partition} may be a reused view.
   */
  BinaryRow of(InternalRow partition) {
    int length = codec.encodeReused(partition);
    byte[] encoded = codec.reusedBytes();
    if (size > 0 && sameBytes(encoded, length, binaries[last])) {
      return binaries[last];
    }
    for (int i = 0; i < size; i++) {
      if (i != last && sameBytes(encoded, length, binaries[i])) {
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
    binaries[slot] = new BinaryRow(codec.arity(), Arrays.copyOf(encoded, length));
    encodings++;
    last = slot;
    return binaries[slot];
  }

  private static boolean sameBytes(byte[] encoded, int length, BinaryRow row) {
    byte[] bytes = row.bytes();
    return Arrays.equals(encoded, 0, length, bytes, 0, bytes.length);
  }

  /** How many times a partition was encoded: once per partition while at most CAPACITY are live. */
  long encodings() {
    return encodings;
  }
}

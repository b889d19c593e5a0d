package io.basalt.data;

import java.util.Arrays;

/**
 * A row in Apache Paimon's BinaryRow byte form (format-notes.md section 5): partition values,
 * min/max keys and stats rows are stored this way in manifests. This class only holds the bytes;
 * {@link BinaryRowCodec} converts between it and Spark's {@code InternalRow}.
 *
 * <p>Equality and hash are over the arity and the bytes, so a BinaryRow can key a map of
 * partitions. Instances are immutable: the byte array is never handed out for writing.
 */
public final class BinaryRow implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The empty row (arity 0): the partition of an unpartitioned table and the keys of append files.
   */
  public static final BinaryRow EMPTY = new BinaryRow(0, new byte[8]);

  private final int arity;
  private final byte[] bytes;

  /**
   * Wraps {@code bytes} (header, null bits, fixed slots and variable part) of a row of {@code
   * arity} fields.
   */
  public BinaryRow(int arity, byte[] bytes) {
    this.arity = arity;
    this.bytes = bytes;
  }

  public int arity() {
    return arity;
  }

  /** The row bytes without the 4-byte arity prefix; callers must not modify them. */
  public byte[] bytes() {
    return bytes;
  }

  /** Whether field {@code pos} is null, read from the null bits. */
  public boolean isNullAt(int pos) {
    int bit = pos + 8;
    return (bytes[bit >>> 3] & (1 << (bit & 7))) != 0;
  }

  /** The 8-byte fixed slot of field {@code pos} (a BIGINT), little-endian as Paimon lays it out. */
  public long getLong(int pos) {
    int offset = ((arity + 63 + 8) / 64) * 8 + pos * 8;
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = (value << 8) | (bytes[offset + i] & 0xFFL);
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return this == o
        || (o instanceof BinaryRow other
            && arity == other.arity
            && Arrays.equals(bytes, other.bytes));
  }

  @Override
  public int hashCode() {
    return 31 * arity + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("BinaryRow(").append(arity).append(", ");
    for (byte b : bytes) {
      sb.append(String.format("%02x", b));
    }
    return sb.append(')').toString();
  }
}

package io.basalt.blob;

import java.io.IOException;

/**
 * The index codec of a {@code .blob} file: each value is stored as the difference to the one before
 * it (the first as itself), zig-zag mapped to an unsigned number and written as a little-endian
 * base-128 varint (seven bits a byte, high bit set on every byte but the last).
 */
final class DeltaVarints {
  private DeltaVarints() {}

  /** The encoded form of {@code values[0..count)}. */
  static byte[] encode(long[] values, int count) {
    byte[] out = new byte[Math.max(16, count * 3)];
    int pos = 0;
    long previous = 0;
    for (int i = 0; i < count; i++) {
      long zigzag = zigzag(values[i] - previous);
      previous = values[i];
      if (pos + 10 > out.length) {
        out = java.util.Arrays.copyOf(out, out.length * 2);
      }
      while ((zigzag & ~0x7FL) != 0) {
        out[pos++] = (byte) ((zigzag & 0x7F) | 0x80);
        zigzag >>>= 7;
      }
      out[pos++] = (byte) zigzag;
    }
    return java.util.Arrays.copyOf(out, pos);
  }

  /**
   * The values encoded in {@code bytes}.
   *
   * @throws IOException when the bytes end inside a varint or a varint is longer than 64 bits
   */
  static long[] decode(byte[] bytes) throws IOException {
    long[] values = new long[Math.min(bytes.length, 1024)];
    int count = 0;
    int pos = 0;
    long previous = 0;
    while (pos < bytes.length) {
      long raw = 0;
      int shift = 0;
      while (true) {
        if (pos >= bytes.length) {
          throw new IOException("the index ends inside a varint");
        }
        byte b = bytes[pos++];
        raw |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
        shift += 7;
        if (shift > 63) {
          throw new IOException("a varint of the index is longer than 64 bits");
        }
      }
      previous += (raw >>> 1) ^ -(raw & 1);
      if (count == values.length) {
        values = java.util.Arrays.copyOf(values, values.length * 2);
      }
      values[count++] = previous;
    }
    return java.util.Arrays.copyOf(values, count);
  }

  private static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }
}

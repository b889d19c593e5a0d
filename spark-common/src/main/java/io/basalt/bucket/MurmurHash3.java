package io.basalt.bucket;

import io.basalt.utils.Check;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 32-bit x86 variant of Austin Appleby's MurmurHash3, reading 4-byte blocks as little-endian
 * ints. Paimon hashes BinaryRows with it to assign fixed buckets and to fill HASH index files.
 */
public final class MurmurHash3 {
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private MurmurHash3() {}

  /** MurmurHash3_x86_32 of {@code bytes[offset, offset + length)} with {@code seed}. */
  public static int hash32(byte[] bytes, int offset, int length, int seed) {
    Check.notNull(bytes, "bytes");
    Check.argument(
        offset >= 0 && length >= 0 && offset + length <= bytes.length,
        "Range [%s, %s) is outside an array of %s bytes",
        offset,
        offset + length,
        bytes.length);
    int h = seed;
    int blocksEnd = offset + (length & ~3);
    for (int i = offset; i < blocksEnd; i += 4) {
      h = mixState(h, mixBlock((int) INT_LE.get(bytes, i)));
    }
    int tail = 0;
    for (int i = length & 3; i > 0; i--) {
      tail = (tail << 8) | (bytes[blocksEnd + i - 1] & 0xff);
    }
    if ((length & 3) != 0) {
      h ^= mixBlock(tail);
    }
    return finish(h, length);
  }

  private static int mixBlock(int k) {
    return Integer.rotateLeft(k * C1, 15) * C2;
  }

  private static int mixState(int h, int k) {
    return Integer.rotateLeft(h ^ k, 13) * 5 + 0xe6546b64;
  }

  private static int finish(int h, int length) {
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}

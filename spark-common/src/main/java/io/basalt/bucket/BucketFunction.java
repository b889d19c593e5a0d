package io.basalt.bucket;

import io.basalt.data.BinaryRow;
import io.basalt.utils.Check;

/**
 * Paimon's default fixed-bucket function (format-notes.md section 7.1): the MurmurHash3 of the
 * bucket-key BinaryRow's bytes with seed 42, taken modulo the bucket count.
 *
 * <p>The hash covers the header byte, the null bits, every slot and the variable part, so the key
 * row must come from {@link io.basalt.data.BinaryRowCodec} to land in the same bucket as Paimon.
 */
public final class BucketFunction {
  /** The seed Paimon uses for row hashes. */
  static final int SEED = 42;

  private BucketFunction() {}

  /** The row hash Paimon stores in HASH index files and uses to pick a bucket. */
  public static int hash(BinaryRow row) {
    Check.notNull(row, "row");
    byte[] bytes = row.bytes();
    return MurmurHash3.hash32(bytes, 0, bytes.length, SEED);
  }

  /**
   * The bucket, in {@code [0, numBuckets)}, of a row whose bucket key is {@code keyRow}.
   *
   * @throws IllegalArgumentException if {@code numBuckets} is not positive
   */
  public static int bucket(BinaryRow keyRow, int numBuckets) {
    Check.argument(
        numBuckets > 0, "Invalid bucket count %s: fixed buckets need at least 1", numBuckets);
    return bucketOfHash(hash(keyRow), numBuckets);
  }

  /**
   * The bucket of a key row encoded in {@code bytes[0, length)} (see {@link
   * io.basalt.data.BinaryRowCodec#encodeReused}): the same as {@link #bucket(BinaryRow, int)}
   * without a BinaryRow per call.
   */
  public static int bucket(byte[] bytes, int length, int numBuckets) {
    Check.argument(
        numBuckets > 0, "Invalid bucket count %s: fixed buckets need at least 1", numBuckets);
    return bucketOfHash(MurmurHash3.hash32(bytes, 0, length, SEED), numBuckets);
  }

  /** The bucket of a row hash: Java's remainder, whose sign follows the hash, made positive. */
  static int bucketOfHash(int hash, int numBuckets) {
    return Math.abs(hash % numBuckets);
  }
}

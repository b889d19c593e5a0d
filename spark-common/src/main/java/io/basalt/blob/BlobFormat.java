package io.basalt.blob;

/** The constants of the {@code .blob} layout and its little-endian helpers. */
final class BlobFormat {
  private BlobFormat() {}

  /** The format version, the file's last byte. */
  static final byte VERSION = 1;

  /** Starts every record, little-endian (bytes CF 11 4E 58). */
  static final int MAGIC = 1481511375;

  /** Starts the payload of an ARRAY&lt;BINARY&gt; value, little-endian (Paimon's). */
  static final int ARRAY_MAGIC = 1094861634;

  /** Starts the payload of a MAP&lt;K, BINARY&gt; value, little-endian (Paimon's). */
  static final int MAP_MAGIC = 0x4D424342;

  /** The version byte after an array or map payload's magic. */
  static final byte PAYLOAD_VERSION = 1;

  /** Array or map magic, version and element count. */
  static final int PAYLOAD_HEADER = 9;

  /** The index entry of a null value, which has no record. */
  static final long NULL_LENGTH = -1L;

  /** The index entry Paimon writes for a value a partial write left out; Basalt never does. */
  static final long PLACEHOLDER_LENGTH = -2L;

  /** Index length (int) plus version (byte). */
  static final int FOOTER_LENGTH = 5;

  /** Magic, record length and CRC around an empty payload. */
  static final int RECORD_OVERHEAD = 16;

  static void putIntLE(byte[] out, int offset, int value) {
    for (int i = 0; i < 4; i++) {
      out[offset + i] = (byte) (value >>> (8 * i));
    }
  }

  static void putLongLE(byte[] out, int offset, long value) {
    for (int i = 0; i < 8; i++) {
      out[offset + i] = (byte) (value >>> (8 * i));
    }
  }

  static int intLE(byte[] in, int offset) {
    int value = 0;
    for (int i = 0; i < 4; i++) {
      value |= (in[offset + i] & 0xFF) << (8 * i);
    }
    return value;
  }

  static long longLE(byte[] in, int offset) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value |= (long) (in[offset + i] & 0xFF) << (8 * i);
    }
    return value;
  }
}

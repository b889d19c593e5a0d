package io.basalt.deletionvectors;

import io.basalt.BasaltException;
import io.basalt.utils.Check;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Converts a {@link DeletionVector} to and from its block in a deletion vector index file
 * (format-notes.md section 8). A block is
 *
 * <pre>
 * int32 BE  L = byte length of the next two items
 * int32     magic: 1581511376 BE (32-bit) or 1681511377 LE (64-bit)
 * L-4 bytes bitmap in RoaringBitmap's portable serialization (little-endian)
 * int32 BE  CRC32 of the L bytes of magic and bitmap
 * </pre>
 *
 * <p>The range an index manifest records for a block has a length of L for a 32-bit vector but L +
 * 8 (the whole block) for a 64-bit one, as Paimon writes them.
 */
public final class DeletionVectorCodec {
  /** The magic of a 32-bit vector, stored big-endian. */
  public static final int BITMAP32_MAGIC = 1581511376;

  /** The magic of a 64-bit vector, stored little-endian. */
  public static final int BITMAP64_MAGIC = 1681511377;

  /** Bytes of a block outside its L bytes: the length before and the CRC after. */
  static final int FRAME_BYTES = 8;

  /** Bytes of a block before the bitmap: the length and the magic. */
  static final int HEADER_BYTES = 8;

  private DeletionVectorCodec() {}

  /**
   * The whole block of {@code vector}: length, magic, bitmap and CRC. Serializing a 64-bit vector
   * run-length encodes its bitmap in place first, which changes no position.
   */
  public static byte[] serialize(DeletionVector vector) {
    Check.notNull(vector, "vector");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(0); // L, patched below
      if (vector instanceof BitmapDeletionVector narrow) {
        out.writeInt(BITMAP32_MAGIC);
        narrow.bitmap().serialize(out);
      } else if (vector instanceof Bitmap64DeletionVector wide) {
        out.writeInt(Integer.reverseBytes(BITMAP64_MAGIC));
        wide.bitmap().runOptimize();
        wide.bitmap().serializePortable(out);
      }
      out.writeInt(0); // CRC, patched below
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to serialize a deletion vector", e);
    }
    byte[] block = bytes.toByteArray();
    int length = block.length - FRAME_BYTES;
    ByteBuffer buffer = ByteBuffer.wrap(block);
    buffer.putInt(0, length);
    buffer.putInt(Integer.BYTES + length, crc(block, length));
    return block;
  }

  /**
   * The length an index manifest records for {@code block}, a block of {@code vector} as {@link
   * #serialize} returns it.
   */
  static int rangeLength(DeletionVector vector, byte[] block) {
    return vector instanceof Bitmap64DeletionVector ? block.length : block.length - FRAME_BYTES;
  }

  /**
   * The block length implied by a block's first two ints and the range length recorded for it.
   *
   * @param source names the block in errors, such as "data file d.parquet in index file i-0"
   * @throws BasaltException if the magic is unknown or the length disagrees with the range
   */
  static int blockLength(int length, int rawMagic, int rangeLength, String source) {
    boolean wide = isBitmap64(rawMagic);
    checkMagic(rawMagic, source);
    int expected = wide ? rangeLength - FRAME_BYTES : rangeLength;
    if (length != expected) {
      throw corrupt(
          source,
          String.format(
              "its block holds %s bytes but the index manifest records a length of %s for this"
                  + " %s-bit vector",
              length, rangeLength, wide ? 64 : 32));
    }
    return length + FRAME_BYTES;
  }

  /**
   * Reads a whole block (as {@link #serialize} writes it), detecting the variant by its magic and
   * checking its length and CRC.
   *
   * @param source names the block in errors, such as "data file d.parquet in index file i-0"
   * @throws BasaltException if the block is malformed or its CRC does not match
   */
  public static DeletionVector deserialize(byte[] block, String source) {
    Check.notNull(block, "block");
    if (block.length < FRAME_BYTES + Integer.BYTES) {
      throw corrupt(source, "its block has only " + block.length + " bytes");
    }
    ByteBuffer buffer = ByteBuffer.wrap(block);
    int length = buffer.getInt(0);
    if (length != block.length - FRAME_BYTES) {
      throw corrupt(
          source,
          String.format(
              "its block declares %s bytes of bitmap data but holds %s",
              length, block.length - FRAME_BYTES));
    }
    int rawMagic = buffer.getInt(Integer.BYTES);
    checkMagic(rawMagic, source);
    int stored = buffer.getInt(Integer.BYTES + length);
    int computed = crc(block, length);
    if (stored != computed) {
      throw corrupt(
          source,
          String.format("checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, computed));
    }
    try {
      return isBitmap64(rawMagic)
          ? read64(block, length - Integer.BYTES)
          : read32(block, length - Integer.BYTES);
    } catch (IOException | RuntimeException e) {
      throw corrupt(source, "its bitmap cannot be decoded (" + e + ")", e);
    }
  }

  private static DeletionVector read32(byte[] block, int bitmapBytes) throws IOException {
    ByteBuffer data = ByteBuffer.wrap(block, HEADER_BYTES, bitmapBytes).slice();
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.deserialize(data.order(ByteOrder.LITTLE_ENDIAN));
    checkConsumed(bitmap.serializedSizeInBytes(), bitmapBytes);
    return new BitmapDeletionVector(bitmap);
  }

  private static DeletionVector read64(byte[] block, int bitmapBytes) throws IOException {
    ByteArrayInputStream data = new ByteArrayInputStream(block, HEADER_BYTES, bitmapBytes);
    Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
    bitmap.deserializePortable(new DataInputStream(data));
    checkConsumed(bitmapBytes - data.available(), bitmapBytes);
    if (!bitmap.isEmpty() && bitmap.last() > Bitmap64DeletionVector.MAX_POSITION) {
      throw new IOException("position " + bitmap.last() + " out of range");
    }
    return new Bitmap64DeletionVector(bitmap);
  }

  private static void checkConsumed(long consumed, int available) throws IOException {
    if (consumed != available) {
      throw new IOException(
          String.format("the bitmap takes %s of the %s bytes before the CRC", consumed, available));
    }
  }

  private static boolean isBitmap64(int rawMagic) {
    return Integer.reverseBytes(rawMagic) == BITMAP64_MAGIC;
  }

  private static void checkMagic(int rawMagic, String source) {
    if (rawMagic != BITMAP32_MAGIC && !isBitmap64(rawMagic)) {
      throw corrupt(
          source,
          String.format(
              "unknown magic 0x%08x (expected %s big-endian for a 32-bit or %s little-endian for a"
                  + " 64-bit vector)",
              rawMagic, BITMAP32_MAGIC, BITMAP64_MAGIC));
    }
  }

  private static int crc(byte[] block, int length) {
    CRC32 crc = new CRC32();
    crc.update(block, Integer.BYTES, length);
    return (int) crc.getValue();
  }

  static BasaltException corrupt(String source, String reason) {
    return new BasaltException(
        "Failed to read the deletion vector of "
            + source
            + ": "
            + reason
            + "; the file is corrupt");
  }

  private static BasaltException corrupt(String source, String reason, Throwable cause) {
    return new BasaltException(
        "Failed to read the deletion vector of " + source + ": " + reason + "; the file is corrupt",
        cause);
  }
}

package io.basalt.deletionvectors;

import static io.basalt.deletionvectors.DeletionVectorTest.vector32;
import static io.basalt.deletionvectors.DeletionVectorTest.vector64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class DeletionVectorCodecTest {
  private static final HexFormat HEX = HexFormat.of();

  /** The notes' verified block for position 1 of a 3-row file, without its CRC. */
  static final String POSITION_1_BLOCK =
      "00000016 5e43f2d0 3a300000 01000000 0000 0000 10000000 0100";

  /** {@code hex} (spaces ignored) followed by the BE CRC32 of everything after its length int. */
  static byte[] withCrc(String hex) {
    byte[] body = HEX.parseHex(hex.replace(" ", ""));
    CRC32 crc = new CRC32();
    crc.update(body, 4, body.length - 4);
    return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
  }

  @Test
  void bitmap32BlockMatchesTheVerifiedPaimonBytes() {
    byte[] block = DeletionVectorCodec.serialize(vector32(1));

    assertThat(HEX.formatHex(block)).isEqualTo(HEX.formatHex(withCrc(POSITION_1_BLOCK)));
    assertThat(block).hasSize(30);
    assertThat(DeletionVectorCodec.rangeLength(vector32(1), block)).isEqualTo(22);
  }

  @Test
  void bitmap64BlockHasLittleEndianMagicAndPortable64BitLayout() {
    byte[] block = DeletionVectorCodec.serialize(vector64(1));

    String expected =
        "00000022" // L = 4 magic + 8 count + 4 key + 18 bitmap
            + "d1d33964" // 1681511377 little-endian
            + "0100000000000000" // one 32-bit bitmap, count LE
            + "00000000" // its key (high 32 bits) LE
            + "3a300000 01000000 0000 0000 10000000 0100";
    assertThat(HEX.formatHex(block)).isEqualTo(HEX.formatHex(withCrc(expected)));
    assertThat(Integer.reverseBytes(ByteBuffer.wrap(block).getInt(4)))
        .isEqualTo(DeletionVectorCodec.BITMAP64_MAGIC);
    assertThat(DeletionVectorCodec.rangeLength(vector64(1), block)).isEqualTo(block.length);
  }

  @Test
  void emptyVectorsRoundTrip() {
    assertThat(roundTrip(new BitmapDeletionVector())).isEqualTo(new BitmapDeletionVector());
    assertThat(roundTrip(new Bitmap64DeletionVector())).isEqualTo(new Bitmap64DeletionVector());
  }

  @Test
  void largeVectorsWithRunsRoundTripAndDetectTheirVariant() {
    BitmapDeletionVector narrow = new BitmapDeletionVector();
    Bitmap64DeletionVector wide = new Bitmap64DeletionVector();
    for (long position = 0; position < 200_000; position += position % 3 == 0 ? 1 : 7) {
      narrow.delete(position);
      wide.delete(position);
    }
    for (long position = 5_000_000; position < 5_100_000; position++) {
      narrow.delete(position);
      wide.delete(position);
    }
    wide.delete((7L << 32) + 11);

    DeletionVector narrowCopy = roundTrip(narrow);
    DeletionVector wideCopy = roundTrip(wide);

    assertThat(narrowCopy).isInstanceOf(BitmapDeletionVector.class).isEqualTo(narrow);
    assertThat(wideCopy).isInstanceOf(Bitmap64DeletionVector.class);
    assertThat(wideCopy.cardinality()).isEqualTo(narrow.cardinality() + 1);
    assertThat(wideCopy.isDeleted((7L << 32) + 11)).isTrue();
    assertThat(wideCopy.isDeleted(5_050_000)).isTrue();
  }

  @Test
  void checksumMismatchIsReported() {
    byte[] block = DeletionVectorCodec.serialize(vector32(1));
    block[block.length - 5] ^= 1; // inside the bitmap
    CRC32 crc = new CRC32();
    crc.update(block, 4, block.length - 8);
    int stored = ByteBuffer.wrap(block).getInt(block.length - 4);

    assertThatThrownBy(() -> DeletionVectorCodec.deserialize(block, "data file d-0.parquet"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            String.format(
                "Failed to read the deletion vector of data file d-0.parquet: checksum mismatch"
                    + " (stored 0x%08x, computed 0x%08x); the file is corrupt",
                stored, (int) crc.getValue()));
  }

  @Test
  void unknownMagicIsReported() {
    byte[] block = withCrc("00000008 01020304 00000000");

    assertThatThrownBy(() -> DeletionVectorCodec.deserialize(block, "data file d"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read the deletion vector of data file d: unknown magic 0x01020304 (expected"
                + " 1581511376 big-endian for a 32-bit or 1681511377 little-endian for a 64-bit"
                + " vector); the file is corrupt");
  }

  @Test
  void lengthThatDisagreesWithTheBlockIsReported() {
    byte[] block = DeletionVectorCodec.serialize(vector32(1));
    ByteBuffer.wrap(block).putInt(0, 21);

    assertThatThrownBy(() -> DeletionVectorCodec.deserialize(block, "data file d"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read the deletion vector of data file d: its block declares 21 bytes of"
                + " bitmap data but holds 22; the file is corrupt");
  }

  @Test
  void bitmapWithTrailingBytesIsReportedEvenWithAValidChecksum() {
    byte[] block = withCrc(POSITION_1_BLOCK.replace("00000016", "00000018") + "0000");

    assertThatThrownBy(() -> DeletionVectorCodec.deserialize(block, "data file d"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read the deletion vector of data file d: its bitmap cannot be decoded"
                + " (java.io.IOException: the bitmap takes 18 of the 20 bytes before the CRC);"
                + " the file is corrupt");
  }

  private static DeletionVector roundTrip(DeletionVector vector) {
    return DeletionVectorCodec.deserialize(DeletionVectorCodec.serialize(vector), "test");
  }
}

package io.basalt.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;
import org.junit.jupiter.api.Test;

class MurmurHash3Test {

  private static int hash(String text, int seed) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32(bytes, 0, bytes.length, seed);
  }

  @Test
  void matchesPublishedReferenceVectors() {
    // vectors from the reference implementation's test suite (SMHasher)
    assertThat(hash("", 0)).isEqualTo(0);
    assertThat(hash("", 1)).isEqualTo(0x514e28b7);
    assertThat(hash("", 0xffffffff)).isEqualTo(0x81f16f39);
    assertThat(MurmurHash3.hash32(new byte[4], 0, 4, 0)).isEqualTo(0x2362f9de);
    assertThat(hash("a", 0x9747b28c)).isEqualTo(0x7fa09ea6);
    assertThat(hash("ab", 0x9747b28c)).isEqualTo(0x74875592);
    assertThat(hash("abc", 0x9747b28c)).isEqualTo(0xc84a62dd);
    assertThat(hash("abcd", 0x9747b28c)).isEqualTo(0xf0478627);
    assertThat(hash("Hello, world!", 0x9747b28c)).isEqualTo(0x24884cba);
    assertThat(hash("The quick brown fox jumps over the lazy dog", 0x9747b28c))
        .isEqualTo(0x2fa826cd);
  }

  @Test
  void agreesWithSparksWordHashOnWordAlignedInput() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      byte[] bytes = new byte[8 * random.nextInt(20)];
      random.nextBytes(bytes);
      int seed = random.nextInt();
      int expected =
          Murmur3_x86_32.hashUnsafeWords(bytes, Platform.BYTE_ARRAY_OFFSET, bytes.length, seed);
      assertThat(MurmurHash3.hash32(bytes, 0, bytes.length, seed)).isEqualTo(expected);
    }
  }

  @Test
  void hashesOnlyTheRequestedRange() {
    byte[] padded = "xxabcdyy".getBytes(StandardCharsets.UTF_8);
    assertThat(MurmurHash3.hash32(padded, 2, 4, 0x9747b28c)).isEqualTo(hash("abcd", 0x9747b28c));
  }

  @Test
  void rejectsRangesOutsideTheArray() {
    assertThatThrownBy(() -> MurmurHash3.hash32(new byte[4], 2, 4, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Range [2, 6) is outside an array of 4 bytes");
  }
}

package io.basalt.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DeletionVectorTest {

  static Stream<Supplier<DeletionVector>> variants() {
    return Stream.of(BitmapDeletionVector::new, Bitmap64DeletionVector::new);
  }

  @ParameterizedTest
  @MethodSource("variants")
  void tracksDeletedPositions(Supplier<DeletionVector> variant) {
    DeletionVector vector = variant.get();
    assertThat(vector.isEmpty()).isTrue();
    assertThat(vector.cardinality()).isZero();

    vector.delete(0);
    vector.delete(7);
    vector.delete(7);
    vector.delete(Integer.MAX_VALUE);

    assertThat(vector.isEmpty()).isFalse();
    assertThat(vector.cardinality()).isEqualTo(3);
    assertThat(vector.isDeleted(0)).isTrue();
    assertThat(vector.isDeleted(7)).isTrue();
    assertThat(vector.isDeleted(8)).isFalse();
    assertThat(vector.isDeleted(Integer.MAX_VALUE)).isTrue();
    assertThat(vector.isDeleted(1L << 40)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("variants")
  void rejectsNegativePositions(Supplier<DeletionVector> variant) {
    DeletionVector vector = variant.get();

    assertThatThrownBy(() -> vector.delete(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid row position -1: positions are 0-based");
    assertThatThrownBy(() -> vector.isDeleted(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid row position -5: positions are 0-based");
  }

  @Test
  void bitmap32RejectsPositionsBeyondIntAndPointsToTheWideVariant() {
    long position = Integer.MAX_VALUE + 1L;

    assertThatThrownBy(() -> new BitmapDeletionVector().delete(position))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Row position 2147483648 does not fit a 32-bit deletion vector (max 2147483647): use"
                + " the 64-bit variant (Bitmap64DeletionVector, table option"
                + " 'deletion-vectors.bitmap64'='true')");
  }

  @Test
  void bitmap64HoldsLargePositionsUpToItsMaximum() {
    Bitmap64DeletionVector vector = new Bitmap64DeletionVector();
    long large = (3L << 32) + 5;

    vector.delete(large);
    vector.delete(Bitmap64DeletionVector.MAX_POSITION);

    assertThat(vector.isDeleted(large)).isTrue();
    assertThat(vector.isDeleted(large - 1)).isFalse();
    assertThat(vector.isDeleted(Bitmap64DeletionVector.MAX_POSITION)).isTrue();
    assertThat(vector.cardinality()).isEqualTo(2);
    assertThatThrownBy(() -> vector.delete(Bitmap64DeletionVector.MAX_POSITION + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Row position %s is beyond the largest position a 64-bit deletion vector holds (%s)",
            Bitmap64DeletionVector.MAX_POSITION + 1, Bitmap64DeletionVector.MAX_POSITION);
    assertThat(Bitmap64DeletionVector.MAX_POSITION).isEqualTo(0x7FFFFFFE_80000000L);
  }

  @Test
  void mergesVectorsOfEitherVariant() {
    BitmapDeletionVector narrow = vector32(1, 3);
    Bitmap64DeletionVector wide = vector64(3, 4);

    narrow.merge(vector32(5));
    narrow.merge(wide);
    assertThat(narrow).isEqualTo(vector32(1, 3, 4, 5));

    wide.merge(vector32(0, 9));
    wide.merge(vector64(1L << 33));
    assertThat(wide).isEqualTo(vector64(0, 3, 4, 9, 1L << 33));
    assertThat(wide.cardinality()).isEqualTo(5);
  }

  @Test
  void mergingLargePositionsIntoA32BitVectorFailsWithoutChangingIt() {
    BitmapDeletionVector narrow = vector32(1);

    assertThatThrownBy(() -> narrow.merge(vector64(2, 1L << 33)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Row position 8589934592 does not fit a 32-bit deletion vector");
    assertThat(narrow).isEqualTo(vector32(1));
  }

  static BitmapDeletionVector vector32(long... positions) {
    BitmapDeletionVector vector = new BitmapDeletionVector();
    for (long position : positions) {
      vector.delete(position);
    }
    return vector;
  }

  static Bitmap64DeletionVector vector64(long... positions) {
    Bitmap64DeletionVector vector = new Bitmap64DeletionVector();
    for (long position : positions) {
      vector.delete(position);
    }
    return vector;
  }
}

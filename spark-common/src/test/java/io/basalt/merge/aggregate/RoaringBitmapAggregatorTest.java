package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static io.basalt.merge.aggregate.AggTestSupport.fold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

class RoaringBitmapAggregatorTest {

  private static byte[] rbm32(int... values) {
    RoaringBitmap bitmap = RoaringBitmap.bitmapOf(values);
    ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(out);
    return out.array();
  }

  private static RoaringBitmap read32(Object bytes) throws IOException {
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.deserialize(ByteBuffer.wrap((byte[]) bytes));
    return bitmap;
  }

  private static byte[] rbm64(long... values) throws IOException {
    Roaring64Bitmap bitmap = Roaring64Bitmap.bitmapOf(values);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      bitmap.serialize(out);
    }
    return bytes.toByteArray();
  }

  private static Roaring64Bitmap read64(Object bytes) throws IOException {
    Roaring64Bitmap bitmap = new Roaring64Bitmap();
    bitmap.deserialize(new DataInputStream(new ByteArrayInputStream((byte[]) bytes)));
    return bitmap;
  }

  @Test
  void rbm32MergesByOr() throws IOException {
    Object merged = fold(create("rbm32", DataTypes.BinaryType), rbm32(1, 5), null, rbm32(5, 70000));
    assertThat(read32(merged).toArray()).containsExactly(1, 5, 70000);
    assertThat(fold(create("rbm32", DataTypes.BinaryType), null, null)).isNull();
  }

  @Test
  void rbm64MergesByOr() throws IOException {
    long big = 1L << 40;
    Object merged = fold(create("rbm64", DataTypes.BinaryType), rbm64(1L, big), rbm64(2L), null);
    assertThat(read64(merged).toArray()).containsExactly(1L, 2L, big);
  }

  @Test
  void aSingleInputIsCopied() throws IOException {
    byte[] input = rbm32(3);
    Object acc = create("rbm32", DataTypes.BinaryType).agg(null, input);
    input[input.length - 1] = 0;
    assertThat(read32(acc).toArray()).containsExactly(3);
  }

  @Test
  void corruptBytesNameTheColumn() {
    FieldAggregator agg = create("rbm32", DataTypes.BinaryType);
    assertThatThrownBy(() -> agg.agg(rbm32(1), new byte[] {1, 2, 3}))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Column 'f' of table db.t holds a value that is not a serialized 32-bit RoaringBitmap"
                + " (aggregate function 'rbm32'). Fix: write bitmaps serialized as Paimon does.");
  }

  @Test
  void bitmapsCannotRetract() {
    FieldAggregator agg = create("rbm64", DataTypes.BinaryType);
    assertThat(agg.supportsRetract()).isFalse();
    assertThatThrownBy(() -> agg.retract(null, null))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("'rbm64' of column 'f' in table db.t cannot retract");
  }
}

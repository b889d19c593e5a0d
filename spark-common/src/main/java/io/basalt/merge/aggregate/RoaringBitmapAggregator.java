package io.basalt.merge.aggregate;

import io.basalt.BasaltException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import javax.annotation.Nullable;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * {@code rbm32} and {@code rbm64}: BINARY values holding serialized RoaringBitmaps, merged by OR.
 * The bytes are those Paimon writes: RoaringBitmap's portable format for 32-bit bitmaps and {@link
 * Roaring64Bitmap#serialize(java.io.DataOutput)} for 64-bit ones, both run-optimized.
 */
final class RoaringBitmapAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final boolean wide;

  RoaringBitmapAggregator(AggregatorContext context, boolean wide) {
    super(context);
    this.wide = wide;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    if (accumulator == null) {
      return ((byte[]) input).clone();
    }
    try {
      return wide
          ? or64((byte[]) accumulator, (byte[]) input)
          : or32((byte[]) accumulator, (byte[]) input);
    } catch (IOException | RuntimeException e) {
      throw new BasaltException(
          String.format(
              "Column '%s' of table %s holds a value that is not a serialized %s RoaringBitmap"
                  + " (aggregate function '%s'). Fix: write bitmaps serialized as Paimon does.",
              field, table, wide ? "64-bit" : "32-bit", functionName()),
          e);
    }
  }

  private static byte[] or32(byte[] accumulator, byte[] input) throws IOException {
    RoaringBitmap result = new RoaringBitmap();
    result.deserialize(ByteBuffer.wrap(accumulator));
    RoaringBitmap other = new RoaringBitmap();
    other.deserialize(ByteBuffer.wrap(input));
    result.or(other);
    result.runOptimize();
    ByteBuffer out = ByteBuffer.allocate(result.serializedSizeInBytes());
    result.serialize(out);
    return out.array();
  }

  private static byte[] or64(byte[] accumulator, byte[] input) throws IOException {
    Roaring64Bitmap result = read64(accumulator);
    result.or(read64(input));
    result.runOptimize();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      result.serialize(out);
    }
    return bytes.toByteArray();
  }

  private static Roaring64Bitmap read64(byte[] serialized) throws IOException {
    Roaring64Bitmap bitmap = new Roaring64Bitmap();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      bitmap.deserialize(in);
    }
    return bitmap;
  }
}

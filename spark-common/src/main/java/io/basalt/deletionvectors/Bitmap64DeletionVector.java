package io.basalt.deletionvectors;

import io.basalt.utils.Check;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * A deletion vector over a 64-bit {@link Roaring64NavigableMap}, for data files too large for
 * {@link BitmapDeletionVector}. Paimon writes it with {@code deletion-vectors.bitmap64=true}; its
 * on-disk form is the one Iceberg uses for deletion vectors.
 */
public final class Bitmap64DeletionVector extends RoaringDeletionVector<Roaring64NavigableMap>
    implements DeletionVector {
  /**
   * The largest position: Paimon and Iceberg keep the high 32 bits below {@link Integer#MAX_VALUE}
   * and the low 32 bits at most 2^31, so their readers accept every vector this class writes.
   */
  public static final long MAX_POSITION = ((long) (Integer.MAX_VALUE - 1) << 32) | 0x80000000L;

  /** An empty vector. */
  public Bitmap64DeletionVector() {
    this(new Roaring64NavigableMap());
  }

  Bitmap64DeletionVector(Roaring64NavigableMap bitmap) {
    super(bitmap);
  }

  @Override
  public void delete(long position) {
    checkNotNegative(position);
    Check.argument(
        position <= MAX_POSITION,
        "Row position %s is beyond the largest position a 64-bit deletion vector holds (%s)",
        position,
        MAX_POSITION);
    bitmap().addLong(position);
  }

  @Override
  public boolean isDeleted(long position) {
    checkNotNegative(position);
    return bitmap().contains(position);
  }

  @Override
  public long cardinality() {
    return bitmap().getLongCardinality();
  }

  @Override
  public boolean isEmpty() {
    return bitmap().isEmpty();
  }

  @Override
  public void merge(DeletionVector other) {
    Check.notNull(other, "other");
    if (other instanceof Bitmap64DeletionVector wide) {
      bitmap().or(wide.bitmap());
    } else if (other instanceof BitmapDeletionVector narrow) {
      narrow.bitmap().forEach((int position) -> bitmap().addLong(position));
    }
  }
}

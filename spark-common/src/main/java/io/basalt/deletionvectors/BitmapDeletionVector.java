package io.basalt.deletionvectors;

import io.basalt.utils.Check;
import org.roaringbitmap.RoaringBitmap;

/**
 * A deletion vector over a 32-bit {@link RoaringBitmap}, for data files of at most {@link
 * Integer#MAX_VALUE} + 1 rows. This is the variant Paimon writes by default.
 */
public final class BitmapDeletionVector extends RoaringDeletionVector<RoaringBitmap>
    implements DeletionVector {
  /** An empty vector. */
  public BitmapDeletionVector() {
    this(new RoaringBitmap());
  }

  BitmapDeletionVector(RoaringBitmap bitmap) {
    super(bitmap);
  }

  @Override
  public void delete(long position) {
    bitmap().add(checkPosition(position));
  }

  private static int checkPosition(long position) {
    checkNotNegative(position);
    Check.argument(
        position <= Integer.MAX_VALUE,
        "Row position %s does not fit a 32-bit deletion vector (max %s): use the 64-bit variant"
            + " (Bitmap64DeletionVector, table option 'deletion-vectors.bitmap64'='true')",
        position,
        Integer.MAX_VALUE);
    return (int) position;
  }

  @Override
  public boolean isDeleted(long position) {
    checkNotNegative(position);
    return position <= Integer.MAX_VALUE && bitmap().contains((int) position);
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
    if (other instanceof BitmapDeletionVector narrow) {
      bitmap().or(narrow.bitmap());
    } else if (other instanceof Bitmap64DeletionVector wide) {
      if (!wide.isEmpty()) {
        checkPosition(wide.bitmap().last());
        wide.bitmap().forEach((long position) -> bitmap().add((int) position));
      }
    }
  }
}

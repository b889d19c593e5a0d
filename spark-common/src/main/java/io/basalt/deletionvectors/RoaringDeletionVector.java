package io.basalt.deletionvectors;

import io.basalt.utils.Check;

/**
 * What both {@link DeletionVector} variants share: the roaring bitmap of deleted positions they
 * wrap, equality by variant and content, and the check that a position is not negative.
 *
 * @param <B> the bitmap type
 */
abstract sealed class RoaringDeletionVector<B>
    permits BitmapDeletionVector, Bitmap64DeletionVector {
  private final B bitmap;

  RoaringDeletionVector(B bitmap) {
    this.bitmap = bitmap;
  }

  /** The bitmap itself, not a copy; the codec serializes it. */
  final B bitmap() {
    return bitmap;
  }

  /**
   * @throws IllegalArgumentException if {@code position} is negative
   */
  static void checkNotNegative(long position) {
    Check.argument(position >= 0, "Invalid row position %s: positions are 0-based", position);
  }

  @Override
  public final boolean equals(Object o) {
    return o != null
        && o.getClass() == getClass()
        && bitmap.equals(((RoaringDeletionVector<?>) o).bitmap);
  }

  @Override
  public final int hashCode() {
    return bitmap.hashCode();
  }

  @Override
  public final String toString() {
    return getClass().getSimpleName() + bitmap;
  }
}

package io.basalt.deletionvectors;

/**
 * The deleted row positions of one data file: 0-based ordinals of rows within the file that readers
 * must skip. Mutable and not thread-safe.
 *
 * <p>Two variants exist and their on-disk forms differ ({@link DeletionVectorCodec}): {@link
 * BitmapDeletionVector} holds positions up to {@link Integer#MAX_VALUE}, {@link
 * Bitmap64DeletionVector} positions beyond that.
 */
public sealed interface DeletionVector permits BitmapDeletionVector, Bitmap64DeletionVector {

  /**
   * Marks the row at {@code position} deleted; marking it again does nothing.
   *
   * @throws IllegalArgumentException if {@code position} is negative or beyond what this variant
   *     can hold
   */
  void delete(long position);

  /**
   * Whether the row at {@code position} is deleted. A position this variant cannot hold is never
   * deleted.
   *
   * @throws IllegalArgumentException if {@code position} is negative
   */
  boolean isDeleted(long position);

  /** The number of deleted rows. */
  long cardinality();

  /** Whether no row is deleted. */
  boolean isEmpty();

  /**
   * Adds every position deleted in {@code other} to this vector; {@code other} is unchanged.
   *
   * @throws IllegalArgumentException if {@code other} holds a position this variant cannot hold
   */
  void merge(DeletionVector other);
}

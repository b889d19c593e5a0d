package io.basalt.index;

import io.basalt.utils.Check;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * Where the deletion vector of one data file lies in a deletion vector index file: one element of
 * {@code _DELETIONS_VECTORS_RANGES} (format-notes.md sections 4.4 and 8).
 *
 * @param dataFileName the data file the vector belongs to (stored as {@code f0})
 * @param offset the byte position of the block's length int in the index file ({@code f1}); the
 *     first block is at 1, after the version byte
 * @param length the recorded length ({@code f2}): the bitmap data length L for a 32-bit vector, the
 *     whole block (L + 8) for a 64-bit one
 * @param cardinality the number of deleted rows, or null when unknown ({@code _CARDINALITY})
 */
public record DeletionVectorMeta(
    String dataFileName, int offset, int length, @Nullable Long cardinality)
    implements Serializable {

  public DeletionVectorMeta {
    Check.notNull(dataFileName, "dataFileName");
    Check.argument(
        offset >= 0, "Invalid offset %s of the deletion vector of %s", offset, dataFileName);
    Check.argument(
        length > 0, "Invalid length %s of the deletion vector of %s", length, dataFileName);
    Check.argument(
        cardinality == null || cardinality >= 0,
        "Invalid cardinality %s of the deletion vector of %s",
        cardinality,
        dataFileName);
  }
}

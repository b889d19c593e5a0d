package io.basalt.deletionvectors;

import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * Where the deletion vector of one data file is stored: a byte range of an index file under the
 * table's {@code index/} directory.
 *
 * @param indexFileName the index file's name
 * @param offset where the vector's block starts (its length int)
 * @param length the block's recorded length
 * @param cardinality how many rows it deletes, or null when unknown
 */
public record DeletionFile(
    String indexFileName, long offset, long length, @Nullable Long cardinality)
    implements Serializable {}

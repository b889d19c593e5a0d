package io.basalt.index;

import io.basalt.utils.Check;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One index file in {@code index/}: a HASH index (dynamic bucket assignment) or a file of deletion
 * vectors (format-notes.md section 4.4).
 *
 * @param indexType {@link #HASH} or {@link #DELETION_VECTORS}; other values read from newer files
 *     are kept as they are
 * @param fileName the file name in {@code index/}
 * @param fileSize the exact byte size of the file
 * @param rowCount for HASH the number of ints; for deletion vectors the number of vectors
 * @param dvRanges for deletion vectors, the range of each data file's vector keyed by data file
 *     name in file order; null for other index types. An unmodifiable copy that keeps the order
 * @param externalPath the full path when the file lives outside the table, otherwise null
 */
public record IndexFileMeta(
    String indexType,
    String fileName,
    long fileSize,
    long rowCount,
    @Nullable Map<String, DeletionVectorMeta> dvRanges,
    @Nullable String externalPath)
    implements Serializable {

  /** The index type of a dynamic-bucket hash index. */
  public static final String HASH = "HASH";

  /** The index type of a deletion vector file. */
  public static final String DELETION_VECTORS = "DELETION_VECTORS";

  public IndexFileMeta {
    Check.notNull(indexType, "indexType");
    Check.notNull(fileName, "fileName");
    Check.argument(fileSize >= 0, "Invalid size %s of index file %s", fileSize, fileName);
    Check.argument(rowCount >= 0, "Invalid row count %s of index file %s", rowCount, fileName);
    if (dvRanges != null) {
      dvRanges = Collections.unmodifiableMap(new LinkedHashMap<>(dvRanges));
      for (Map.Entry<String, DeletionVectorMeta> range : dvRanges.entrySet()) {
        Check.argument(
            range.getKey().equals(range.getValue().dataFileName()),
            "Deletion vector range of %s is keyed by %s in index file %s",
            range.getValue().dataFileName(),
            range.getKey(),
            fileName);
      }
    }
  }

  /** A deletion vector file in the table's {@code index/} directory. */
  public static IndexFileMeta deletionVectors(
      String fileName, long fileSize, Map<String, DeletionVectorMeta> dvRanges) {
    Check.notNull(dvRanges, "dvRanges");
    return new IndexFileMeta(DELETION_VECTORS, fileName, fileSize, dvRanges.size(), dvRanges, null);
  }
}

package io.basalt.deletionvectors;

import io.basalt.index.IndexFileMeta;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The deletion vectors of one bucket's data files during a write or compaction: loaded from the
 * bucket's index files, changed in memory, and written back as a complete new set when anything
 * changed. A bucket's vectors are small (bitmaps of positions), so they are held whole.
 */
public final class BucketDeletionVectors {
  /**
   * The index-file target size for bucket vectors: never roll, since a bucket keeps exactly one
   * deletion-vector index file (as Paimon does) and the index manifest holds one entry per bucket.
   */
  public static final long ONE_FILE_PER_BUCKET = Long.MAX_VALUE;

  private final DeletionVectorIndexFile indexFiles;
  private final List<IndexFileMeta> current;
  private final boolean bitmap64;
  private final Map<String, DeletionVector> vectors = new LinkedHashMap<>();
  private boolean changed;

  /**
   * @param current the bucket's deletion-vector index files in the base snapshot
   */
  public BucketDeletionVectors(
      DeletionVectorIndexFile indexFiles, List<IndexFileMeta> current, boolean bitmap64) {
    this.indexFiles = indexFiles;
    this.current = List.copyOf(current);
    this.bitmap64 = bitmap64;
    for (IndexFileMeta file : current) {
      vectors.putAll(indexFiles.readAll(file));
    }
  }

  /** The vector of {@code dataFile}, or null when none of its rows is deleted. */
  @Nullable
  public DeletionVector get(String dataFile) {
    return vectors.get(dataFile);
  }

  /** Marks row {@code position} of {@code dataFile} deleted. */
  public void delete(String dataFile, long position) {
    vectors
        .computeIfAbsent(
            dataFile, f -> bitmap64 ? new Bitmap64DeletionVector() : new BitmapDeletionVector())
        .delete(position);
    changed = true;
  }

  /** Marks every row {@code deleted} marks in {@code dataFile} deleted. */
  public void merge(String dataFile, DeletionVector deleted) {
    if (deleted.isEmpty()) {
      return;
    }
    vectors
        .computeIfAbsent(
            dataFile, f -> bitmap64 ? new Bitmap64DeletionVector() : new BitmapDeletionVector())
        .merge(deleted);
    changed = true;
  }

  /** Forgets the vectors of files that no longer exist (rewritten by a compaction). */
  public void removeFiles(Collection<String> dataFiles) {
    for (String file : dataFiles) {
      changed |= vectors.remove(file) != null;
    }
  }

  /** Whether the vectors differ from {@link #current()}. */
  public boolean changed() {
    return changed;
  }

  /** The index files the bucket had before. */
  public List<IndexFileMeta> current() {
    return current;
  }

  /** Writes the complete new set of vectors (empty vectors left out); returns the new files. */
  public List<IndexFileMeta> write() {
    Map<String, DeletionVector> nonEmpty = new LinkedHashMap<>();
    for (Map.Entry<String, DeletionVector> e : vectors.entrySet()) {
      if (!e.getValue().isEmpty()) {
        nonEmpty.put(e.getKey(), e.getValue());
      }
    }
    return nonEmpty.isEmpty() ? new ArrayList<>() : indexFiles.write(nonEmpty);
  }
}

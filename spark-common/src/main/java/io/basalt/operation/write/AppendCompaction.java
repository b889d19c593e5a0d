package io.basalt.operation.write;

import io.basalt.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Picks the small files of an append-table bucket to merge: the oldest files under the target size,
 * at most {@code maxFiles}, once at least {@code minFiles} of them exist.
 */
public final class AppendCompaction {
  private AppendCompaction() {}

  /** The files to merge (empty when nothing is due); {@code full} picks every file. */
  public static List<DataFileMeta> pick(
      List<DataFileMeta> files, boolean full, long targetFileSize, int minFiles, int maxFiles) {
    List<DataFileMeta> ordered = new ArrayList<>(files);
    ordered.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber));
    if (full) {
      return ordered.size() > 1 ? ordered : List.of();
    }
    List<DataFileMeta> small = new ArrayList<>();
    for (DataFileMeta file : ordered) {
      if (file.fileSize() < targetFileSize) {
        small.add(file);
        if (small.size() == maxFiles) {
          break;
        }
      }
    }
    return small.size() >= Math.max(2, minFiles) ? small : List.of();
  }
}

package io.basalt.rowtracking;

import io.basalt.blob.BlobColumns;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What a commit to a row-tracking table does to the files it adds, as Paimon 1.3's commit does:
 * every added file gets the new snapshot's id as its min and max sequence number, and every added
 * file written by a writer (not by compaction) that has no first row id yet gets the next free one;
 * the snapshot's {@code nextRowId} moves past its rows. Compacted files keep their rows' ids in
 * their own columns, so they take no new ids. A {@code .blob} file takes the ids of the rows of the
 * data file listed before it (after that file's earlier blob files of the same column).
 */
public final class RowIdAssignment {
  private RowIdAssignment() {}

  /** The first row id a commit on top of {@code latest} hands out. */
  public static long firstFreeRowId(@Nullable Snapshot latest) {
    return latest == null || latest.nextRowId() == null ? 0L : latest.nextRowId();
  }

  /**
   * {@code delta} with ids and sequence numbers assigned to its added files, for snapshot {@code
   * snapshotId} on top of {@code latest}. Deleted entries are left alone.
   */
  public static List<ManifestEntry> assign(
      List<ManifestEntry> delta, long snapshotId, @Nullable Snapshot latest) {
    long next = firstFreeRowId(latest);
    // a data file's blob files follow it and take its ids again, one run per BLOB column
    long dataStart = next;
    Map<String, Long> blobNext = new HashMap<>();
    List<ManifestEntry> assigned = new ArrayList<>(delta.size());
    for (ManifestEntry entry : delta) {
      if (entry.kind() != FileKind.ADD) {
        assigned.add(entry);
        continue;
      }
      DataFileMeta file = entry.file();
      Long firstRowId = file.firstRowId();
      boolean written =
          file.fileSource() == null || file.fileSource() == DataFileMeta.SOURCE_APPEND;
      if (written && firstRowId == null && BlobColumns.isBlobFile(file.fileName())) {
        String column = file.writeCols().get(0);
        firstRowId = blobNext.getOrDefault(column, dataStart);
        Check.state(
            firstRowId + file.rowCount() <= next,
            "Blob file %s has rows past its data file's (ids up to %s)",
            file.fileName(),
            next);
        blobNext.put(column, firstRowId + file.rowCount());
      } else if (written && firstRowId == null) {
        firstRowId = next;
        dataStart = next;
        blobNext.clear();
        next += file.rowCount();
      }
      assigned.add(
          new ManifestEntry(
              entry.kind(),
              entry.partition(),
              entry.bucket(),
              entry.totalBuckets(),
              file.withRowTracking(firstRowId, snapshotId, snapshotId)));
    }
    return assigned;
  }

  /**
   * The {@code nextRowId} of the snapshot that commits {@code delta} (already {@link #assign
   * assigned}) on top of {@code latest}: past every id handed out.
   */
  public static long nextRowId(List<ManifestEntry> delta, @Nullable Snapshot latest) {
    long next = firstFreeRowId(latest);
    for (ManifestEntry entry : delta) {
      Long first = entry.file().firstRowId();
      if (entry.kind() == FileKind.ADD && first != null) {
        next = Math.max(next, first + entry.file().rowCount());
      }
    }
    return next;
  }
}

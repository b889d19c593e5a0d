package io.basalt.blob;

import io.basalt.BasaltException;
import io.basalt.manifest.DataFileMeta;
import io.basalt.options.BlobOptions;
import io.basalt.options.Options;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * Which data files of a blob table's bucket to merge, as Paimon's data-evolution compaction picks
 * them: runs of data files whose row ids follow each other without a gap, cut into groups of at
 * most the target size. A group becomes one data file that keeps the group's first row id, so every
 * row keeps its id and every blob file of the group still falls inside one data file's ids; the
 * blob files themselves are never rewritten.
 */
public final class BlobCompaction {
  private BlobCompaction() {}

  /**
   * The groups of {@code files} (a bucket's live files, blob files included) to merge, each in row
   * id order; empty when nothing is due. Data files that hold one of {@code blobColumns} themselves
   * (written before the column moved to blob files) are left alone. Without {@code full}, only
   * files under {@code targetFileSize} merge and a group needs at least {@code minFiles} of them; a
   * group never holds more than {@code maxFiles} files or more than {@code targetFileSize} bytes.
   */
  public static List<List<DataFileMeta>> pick(
      List<DataFileMeta> files,
      List<String> blobColumns,
      boolean full,
      long targetFileSize,
      int minFiles,
      int maxFiles) {
    List<DataFileMeta> data = new ArrayList<>();
    for (DataFileMeta file : files) {
      if (!BlobColumns.isBlobFile(file.fileName()) && file.firstRowId() != null) {
        data.add(file);
      }
    }
    data.sort(Comparator.comparingLong(DataFileMeta::firstRowId));
    int needed = full ? 2 : Math.max(2, minFiles);
    List<List<DataFileMeta>> groups = new ArrayList<>();
    List<DataFileMeta> group = new ArrayList<>();
    long groupBytes = 0;
    for (DataFileMeta file : data) {
      boolean eligible =
          (full || file.fileSize() < targetFileSize)
              && file.writeCols() != null
              && Collections.disjoint(file.writeCols(), blobColumns);
      if (!group.isEmpty()
          && (!eligible
              || file.firstRowId() != end(group.get(group.size() - 1))
              || groupBytes + file.fileSize() > targetFileSize
              || group.size() == maxFiles)) {
        addIfDue(groups, group, needed);
        group = new ArrayList<>();
        groupBytes = 0;
      }
      if (eligible) {
        group.add(file);
        groupBytes += file.fileSize();
      }
    }
    addIfDue(groups, group, needed);
    return groups;
  }

  private static long end(DataFileMeta file) {
    return file.firstRowId() + file.rowCount();
  }

  private static void addIfDue(
      List<List<DataFileMeta>> groups, List<DataFileMeta> group, int needed) {
    if (group.size() >= needed) {
      groups.add(group);
    }
  }

  /**
   * Refuses to re-cluster ({@code order_strategy}) a table that keeps BLOB columns in {@code .blob}
   * files: sorting moves rows away from the row ids their blob values are stored under.
   *
   * @throws BasaltException naming the table, the columns and the way out
   */
  public static void checkNoReclustering(StructType rowType, Options options, String table) {
    List<String> blobs = BlobColumns.of(rowType, options);
    if (!blobs.isEmpty()) {
      throw new BasaltException(
          String.format(
              "Cannot re-cluster %s: it keeps BLOB column(s) %s in .blob files ('%s'), whose"
                  + " values are stored by row id, and sorting would move rows away from them."
                  + " Fix: compact it without order_strategy (CALL sys.compact(table => '%s')),"
                  + " which merges data files and keeps the blob files.",
              table, blobs, BlobOptions.BLOB_FIELD.key(), table));
    }
  }
}

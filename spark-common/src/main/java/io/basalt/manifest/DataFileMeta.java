package io.basalt.manifest;

import io.basalt.data.BinaryRow;
import io.basalt.utils.Check;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One data file as a manifest describes it (format-notes.md section 4.3, the {@code _FILE} row),
 * with its components in on-disk order.
 *
 * @param fileName the file name only; its directory follows from partition and bucket
 * @param fileSize the exact size in bytes
 * @param rowCount all rows, retractions included
 * @param minKey the smallest trimmed primary key (empty row for append tables)
 * @param maxKey the largest trimmed primary key
 * @param keyStats stats over the key columns
 * @param valueStats stats over the value columns named by {@code valueStatsCols} (all when null)
 * @param minSequenceNumber smallest sequence number in the file
 * @param maxSequenceNumber largest sequence number in the file
 * @param schemaId the schema the file was written with
 * @param level the LSM level, 0 for fresh writes
 * @param extraFiles sidecar files
 * @param creationTimeMillis local wall-clock millis at creation, or null
 * @param deleteRowCount the number of -U/-D rows, or null when unknown
 * @param embeddedIndex an inlined file index, or null
 * @param fileSource 0 = written by a writer, 1 = by compaction, or null
 * @param valueStatsCols the value columns covered by {@code valueStats}; null means all
 * @param externalPath the full path when the file lives outside the table, or null
 * @param firstRowId row tracking only, or null
 * @param writeCols data-evolution column subset, or null
 */
public record DataFileMeta(
    String fileName,
    long fileSize,
    long rowCount,
    BinaryRow minKey,
    BinaryRow maxKey,
    SimpleStats keyStats,
    SimpleStats valueStats,
    long minSequenceNumber,
    long maxSequenceNumber,
    long schemaId,
    int level,
    List<String> extraFiles,
    @Nullable Long creationTimeMillis,
    @Nullable Long deleteRowCount,
    @Nullable byte[] embeddedIndex,
    @Nullable Integer fileSource,
    @Nullable List<String> valueStatsCols,
    @Nullable String externalPath,
    @Nullable Long firstRowId,
    @Nullable List<String> writeCols)
    implements java.io.Serializable {

  /** {@link #fileSource} of files written by a writer. */
  public static final int SOURCE_APPEND = 0;

  /** {@link #fileSource} of files written by compaction. */
  public static final int SOURCE_COMPACT = 1;

  public DataFileMeta {
    Check.notNull(fileName, "fileName");
    Check.argument(level >= 0, "Invalid level %s for data file %s", level, fileName);
    Check.argument(rowCount >= 0, "Invalid row count %s for data file %s", rowCount, fileName);
    Check.notNull(minKey, "minKey");
    Check.notNull(maxKey, "maxKey");
    Check.notNull(keyStats, "keyStats");
    Check.notNull(valueStats, "valueStats");
    extraFiles = List.copyOf(extraFiles);
    valueStatsCols = valueStatsCols == null ? null : List.copyOf(valueStatsCols);
    writeCols = writeCols == null ? null : List.copyOf(writeCols);
  }

  /**
   * A newly written file as Basalt's writers produce it: no sidecars, index, external path or row
   * ids.
   */
  public static DataFileMeta newFile(
      String fileName,
      long fileSize,
      long rowCount,
      BinaryRow minKey,
      BinaryRow maxKey,
      SimpleStats keyStats,
      SimpleStats valueStats,
      long minSequenceNumber,
      long maxSequenceNumber,
      long schemaId,
      int level,
      long deleteRowCount,
      int fileSource,
      @Nullable List<String> valueStatsCols) {
    return new DataFileMeta(
        fileName,
        fileSize,
        rowCount,
        minKey,
        maxKey,
        keyStats,
        valueStats,
        minSequenceNumber,
        maxSequenceNumber,
        schemaId,
        level,
        List.of(),
        System.currentTimeMillis(),
        deleteRowCount,
        null,
        fileSource,
        valueStatsCols,
        null,
        null,
        null);
  }

  /** A copy that holds only {@code columns} of its rows (data evolution), or all when null. */
  public DataFileMeta withWriteCols(@Nullable List<String> columns) {
    Copy copy = new Copy(this);
    copy.writeCols = columns;
    return copy.build();
  }

  /** A copy whose {@code valueStats} cover {@code columns}, or all columns when null. */
  public DataFileMeta withValueStatsCols(@Nullable List<String> columns) {
    Copy copy = new Copy(this);
    copy.valueStatsCols = columns;
    return copy.build();
  }

  /**
   * A copy of this file with the row-tracking fields a commit assigns: its first row id (or null)
   * and its sequence number range.
   */
  public DataFileMeta withRowTracking(@Nullable Long newFirstRowId, long minSeq, long maxSeq) {
    Copy copy = new Copy(this);
    copy.firstRowId = newFirstRowId;
    copy.minSequenceNumber = minSeq;
    copy.maxSequenceNumber = maxSeq;
    return copy.build();
  }

  /** A copy of this file at another level (a level change needs no rewrite). */
  public DataFileMeta withLevel(int newLevel) {
    Copy copy = new Copy(this);
    copy.level = newLevel;
    return copy.build();
  }

  /**
   * The components of a file, to change a few and build the copy: one place lists them in record
   * order, so the {@code with...} methods cannot mix up two of the same type.
   */
  private static final class Copy {
    private final DataFileMeta from;
    long minSequenceNumber;
    long maxSequenceNumber;
    int level;
    @Nullable List<String> valueStatsCols;
    @Nullable Long firstRowId;
    @Nullable List<String> writeCols;

    Copy(DataFileMeta from) {
      this.from = from;
      this.minSequenceNumber = from.minSequenceNumber;
      this.maxSequenceNumber = from.maxSequenceNumber;
      this.level = from.level;
      this.valueStatsCols = from.valueStatsCols;
      this.firstRowId = from.firstRowId;
      this.writeCols = from.writeCols;
    }

    DataFileMeta build() {
      return new DataFileMeta(
          from.fileName,
          from.fileSize,
          from.rowCount,
          from.minKey,
          from.maxKey,
          from.keyStats,
          from.valueStats,
          minSequenceNumber,
          maxSequenceNumber,
          from.schemaId,
          level,
          from.extraFiles,
          from.creationTimeMillis,
          from.deleteRowCount,
          from.embeddedIndex,
          from.fileSource,
          valueStatsCols,
          from.externalPath,
          firstRowId,
          writeCols);
    }
  }
}

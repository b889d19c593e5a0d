package io.basalt.operation.write;

import io.basalt.data.RowKind;
import io.basalt.index.IndexFileMeta;
import io.basalt.manifest.DataFileMeta;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/** Writes the rows of one (partition, bucket) within one write. */
interface BucketWriter {

  /** Adds a table row; the row may be reused by the caller afterwards. */
  void write(InternalRow row);

  /**
   * Adds a table row of {@code kind}; the row may be reused by the caller afterwards. Only
   * primary-key writers accept retractions.
   */
  void write(InternalRow row, RowKind kind);

  /**
   * Adds a table row of {@code kind} if the write's buffer memory allows it ({@code force}: even
   * beyond the budget); false, adding nothing, when the owner must free memory first.
   */
  default boolean tryWrite(InternalRow row, RowKind kind, boolean force) {
    write(row, kind);
    return true;
  }

  /** Bytes held in memory. */
  long memoryUsed();

  /** Writes buffered rows out as a file, freeing memory. */
  void flush();

  /**
   * Flushes, compacts when due ({@code fullCompaction} forces everything into one run), and returns
   * what the write changed.
   */
  Result finish(boolean fullCompaction);

  /** Deletes every file written. */
  void abort();

  /**
   * The files a bucket writer added, the ones its compactions replaced and wrote, and the changelog
   * files it wrote (of the new rows, and of its compactions).
   */
  record Result(
      List<DataFileMeta> newFiles,
      List<DataFileMeta> compactBefore,
      List<DataFileMeta> compactAfter,
      List<IndexFileMeta> newIndexFiles,
      List<IndexFileMeta> deletedIndexFiles,
      List<DataFileMeta> changelogFiles,
      List<DataFileMeta> compactChangelogFiles) {

    Result(
        List<DataFileMeta> newFiles,
        List<DataFileMeta> compactBefore,
        List<DataFileMeta> compactAfter,
        List<IndexFileMeta> newIndexFiles,
        List<IndexFileMeta> deletedIndexFiles,
        List<DataFileMeta> changelogFiles) {
      this(
          newFiles,
          compactBefore,
          compactAfter,
          newIndexFiles,
          deletedIndexFiles,
          changelogFiles,
          List.of());
    }

    Result(
        List<DataFileMeta> newFiles,
        List<DataFileMeta> compactBefore,
        List<DataFileMeta> compactAfter,
        List<IndexFileMeta> newIndexFiles,
        List<IndexFileMeta> deletedIndexFiles) {
      this(newFiles, compactBefore, compactAfter, newIndexFiles, deletedIndexFiles, List.of());
    }

    /** This result with {@code files} as its changelog files. */
    Result withChangelog(List<DataFileMeta> files) {
      return new Result(
          newFiles,
          compactBefore,
          compactAfter,
          newIndexFiles,
          deletedIndexFiles,
          files,
          compactChangelogFiles);
    }

    /** This result with {@code files} as the changelog files of its compactions. */
    Result withCompactChangelog(List<DataFileMeta> files) {
      return new Result(
          newFiles,
          compactBefore,
          compactAfter,
          newIndexFiles,
          deletedIndexFiles,
          changelogFiles,
          files);
    }

    Result(
        List<DataFileMeta> newFiles,
        List<DataFileMeta> compactBefore,
        List<DataFileMeta> compactAfter) {
      this(newFiles, compactBefore, compactAfter, List.of(), List.of());
    }
  }
}

package io.basalt.table;

import io.basalt.data.BinaryRow;
import io.basalt.index.IndexFileMeta;
import io.basalt.manifest.DataFileMeta;
import java.io.Serializable;
import java.util.List;

/**
 * What one bucket writer produced in a write, handed from a task to the driver's commit: new files
 * of a (partition, bucket), and the files a compaction replaced and wrote.
 *
 * @param totalBuckets the bucket count the files were written with
 * @param newFiles level-0 files with new rows (an APPEND)
 * @param compactBefore files a compaction rewrote (a COMPACT deletes them)
 * @param compactAfter files a compaction wrote (a COMPACT adds them)
 * @param newIndexFiles the bucket's new complete set of deletion-vector index files
 * @param deletedIndexFiles the bucket's index files that set replaces
 * @param changelogFiles changelog files of the new rows (a changelog producer wrote them)
 * @param compactChangelogFiles changelog files a compaction wrote ({@code full-compaction}
 *     producer); they land with the compaction, in the COMPACT snapshot
 */
public record CommitMessage(
    BinaryRow partition,
    int bucket,
    int totalBuckets,
    List<DataFileMeta> newFiles,
    List<DataFileMeta> compactBefore,
    List<DataFileMeta> compactAfter,
    List<IndexFileMeta> newIndexFiles,
    List<IndexFileMeta> deletedIndexFiles,
    List<DataFileMeta> changelogFiles,
    List<DataFileMeta> compactChangelogFiles)
    implements Serializable {
  public CommitMessage {
    changelogFiles = List.copyOf(changelogFiles);
    compactChangelogFiles = List.copyOf(compactChangelogFiles);
    newFiles = List.copyOf(newFiles);
    compactBefore = List.copyOf(compactBefore);
    compactAfter = List.copyOf(compactAfter);
    newIndexFiles = List.copyOf(newIndexFiles);
    deletedIndexFiles = List.copyOf(deletedIndexFiles);
  }

  /** A message without changelog files of a compaction. */
  public CommitMessage(
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      List<DataFileMeta> newFiles,
      List<DataFileMeta> compactBefore,
      List<DataFileMeta> compactAfter,
      List<IndexFileMeta> newIndexFiles,
      List<IndexFileMeta> deletedIndexFiles,
      List<DataFileMeta> changelogFiles) {
    this(
        partition,
        bucket,
        totalBuckets,
        newFiles,
        compactBefore,
        compactAfter,
        newIndexFiles,
        deletedIndexFiles,
        changelogFiles,
        List.of());
  }

  /** This message with {@code files} as the changelog files of its compaction. */
  public CommitMessage withCompactChangelog(List<DataFileMeta> files) {
    return new CommitMessage(
        partition,
        bucket,
        totalBuckets,
        newFiles,
        compactBefore,
        compactAfter,
        newIndexFiles,
        deletedIndexFiles,
        changelogFiles,
        files);
  }

  /** A message without changelog files. */
  public CommitMessage(
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      List<DataFileMeta> newFiles,
      List<DataFileMeta> compactBefore,
      List<DataFileMeta> compactAfter,
      List<IndexFileMeta> newIndexFiles,
      List<IndexFileMeta> deletedIndexFiles) {
    this(
        partition,
        bucket,
        totalBuckets,
        newFiles,
        compactBefore,
        compactAfter,
        newIndexFiles,
        deletedIndexFiles,
        List.of());
  }

  /** A message without index changes. */
  public CommitMessage(
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      List<DataFileMeta> newFiles,
      List<DataFileMeta> compactBefore,
      List<DataFileMeta> compactAfter) {
    this(
        partition,
        bucket,
        totalBuckets,
        newFiles,
        compactBefore,
        compactAfter,
        List.of(),
        List.of());
  }

  /** A message with new files only. */
  public CommitMessage(
      BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> newFiles) {
    this(partition, bucket, totalBuckets, newFiles, List.of(), List.of());
  }

  /** Whether a compaction changed anything (files or deletion vectors). */
  public boolean hasCompaction() {
    return !compactBefore.isEmpty()
        || !compactAfter.isEmpty()
        || !newIndexFiles.isEmpty()
        || !deletedIndexFiles.isEmpty();
  }
}

package io.basalt.operation.compact;

import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.UniversalCompaction;
import io.basalt.operation.write.AppendCompactRewriter;
import io.basalt.operation.write.AppendCompaction;
import io.basalt.operation.write.BucketCompaction;
import io.basalt.operation.write.CompactRewriter;
import io.basalt.options.CompactionSettings;
import io.basalt.options.WriteOptions;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;

/**
 * Compacts one bucket outside a write (the {@code CALL sys.compact} job): primary-key buckets by
 * the merge tree's compaction (full: everything into one run at the top level; minor: what the
 * universal picker chooses), append buckets by merging small files. Returns the change as a {@link
 * CommitMessage} for {@code FileStoreCommit.commitCompaction}.
 */
public final class BucketCompactor {
  private final FileStoreTable table;
  private final CompactionSettings settings;

  public BucketCompactor(FileStoreTable table) {
    this.table = table;
    this.settings = CompactionSettings.of(table.options());
  }

  /**
   * Compacts the live files of {@code split}'s bucket.
   *
   * @param split every live file of one bucket (as planned without filters)
   * @param full whether to compact fully rather than only what is due
   */
  public CommitMessage compact(DataSplit split, boolean full) {
    return table.hasPrimaryKey() ? compactMergeTree(split, full) : compactAppend(split, full);
  }

  private CommitMessage compactMergeTree(DataSplit split, boolean full) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    int maxFileLevel = 0;
    for (DataFileMeta file : split.files()) {
      maxFileLevel = Math.max(maxFileLevel, file.level());
    }
    Levels levels =
        new Levels(
            layout.keyTypes(), Math.max(settings.numLevels(), maxFileLevel + 1), split.files());
    BucketCompaction compaction =
        new BucketCompaction(
            new CompactRewriter(table),
            levels,
            split.partition(),
            split.bucket(),
            split.totalBuckets(),
            table.dataFilePaths().bucketDir(split.partition(), split.bucket()),
            table.fileIO().conf());
    try {
      if (full) {
        compaction.full();
      } else {
        compaction.compactWhileDue(new UniversalCompaction(settings));
      }
    } catch (RuntimeException e) {
      compaction.abort();
      throw e;
    }
    return new CommitMessage(
        split.partition(),
        split.bucket(),
        split.totalBuckets(),
        List.of(),
        compaction.before(),
        compaction.after());
  }

  private CommitMessage compactAppend(DataSplit split, boolean full) {
    List<DataFileMeta> picked =
        AppendCompaction.pick(
            split.files(),
            full,
            table.options().get(WriteOptions.TARGET_FILE_SIZE),
            settings.minFileNum(),
            settings.maxFileNum());
    if (picked.isEmpty()) {
      return new CommitMessage(split.partition(), split.bucket(), split.totalBuckets(), List.of());
    }
    List<DataFileMeta> written =
        new AppendCompactRewriter(table)
            .rewrite(split.partition(), split.bucket(), split.totalBuckets(), picked);
    return new CommitMessage(
        split.partition(), split.bucket(), split.totalBuckets(), List.of(), picked, written);
  }
}

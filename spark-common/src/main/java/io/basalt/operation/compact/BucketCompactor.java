package io.basalt.operation.compact;

import io.basalt.blob.BlobColumns;
import io.basalt.blob.BlobCompaction;
import io.basalt.changelog.LookupProducer;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.UniversalCompaction;
import io.basalt.operation.write.AppendCompactRewriter;
import io.basalt.operation.write.AppendCompaction;
import io.basalt.operation.write.BlobCompactRewriter;
import io.basalt.operation.write.BucketCompaction;
import io.basalt.operation.write.CompactRewriter;
import io.basalt.operation.write.LookupPromotion;
import io.basalt.options.CompactionSettings;
import io.basalt.options.TableOptions;
import io.basalt.options.WriteOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

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
    if (!table.hasPrimaryKey()) {
      return compactAppend(split, full);
    }
    return compactMergeTree(split, full ? Mode.FULL : Mode.MINOR);
  }

  /**
   * Only moves the level-0 files of {@code split}'s bucket up with the lookup, marking the older
   * versions of their keys deleted: the smallest compaction that makes new rows of a primary-key
   * table with deletion vectors visible. Nothing changes on other tables or without level-0 files.
   */
  public CommitMessage promoteLevel0(DataSplit split) {
    if (!table.hasPrimaryKey() || !table.options().get(TableOptions.DELETION_VECTORS_ENABLED)) {
      return new CommitMessage(split.partition(), split.bucket(), split.totalBuckets(), List.of());
    }
    return compactMergeTree(split, Mode.PROMOTE);
  }

  /** How much of a merge-tree bucket to compact. */
  private enum Mode {
    FULL,
    MINOR,
    PROMOTE
  }

  private CommitMessage compactMergeTree(DataSplit split, Mode mode) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    int maxFileLevel = 0;
    for (DataFileMeta file : split.files()) {
      maxFileLevel = Math.max(maxFileLevel, file.level());
    }
    Levels levels =
        new Levels(
            layout.keyType(), Math.max(settings.numLevels(), maxFileLevel + 1), split.files());
    BucketCompaction compaction =
        new BucketCompaction(
            new CompactRewriter(table),
            levels,
            split.partition(),
            split.bucket(),
            split.totalBuckets(),
            table.dataFilePaths().bucketDir(split.partition(), split.bucket()),
            table.fileIO().conf());
    BucketDeletionVectors vectors = deletionVectors(split);
    boolean lookup =
        vectors != null
            || MergeEngine.of(table).hidesLevel0()
            || LookupProducer.enabled(table.options());
    if (lookup) {
      compaction.withLookup(
          vectors,
          new LookupPromotion(
              table,
              layout,
              SequenceOrder.of(table.schema(), table.options(), table.name())
                  .comparator(layout, table.schema().fields())));
    }
    List<IndexFileMeta> newIndexFiles = List.of();
    try {
      if (mode == Mode.FULL) {
        if (compaction.lookupChangelog()) {
          compaction.promoteLevel0(); // the lookup changelog of the rows still on level 0
        }
        compaction.full();
      } else {
        if (lookup) {
          compaction.promoteLevel0();
        }
        if (mode == Mode.MINOR) {
          compaction.compactWhileDue(new UniversalCompaction(settings));
        }
      }
      if (vectors != null && vectors.changed()) {
        newIndexFiles = vectors.write();
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
            compaction.after(),
            newIndexFiles,
            vectors == null || !vectors.changed() ? List.of() : vectors.current())
        .withCompactChangelog(compaction.changelog());
  }

  /** The bucket's deletion vectors at the split's snapshot, or null when the table has none. */
  @Nullable
  private BucketDeletionVectors deletionVectors(DataSplit split) {
    if (!table.options().get(TableOptions.DELETION_VECTORS_ENABLED)) {
      return null;
    }
    Snapshot snapshot = table.snapshotManager().snapshot(split.snapshotId());
    List<IndexFileMeta> files = new ArrayList<>();
    for (IndexManifestEntry entry :
        new IndexManifests(table.fileIO(), table.paths()).read(snapshot.indexManifest())) {
      if (entry.bucket() == split.bucket()
          && entry.partition().equals(split.partition())
          && IndexFileMeta.DELETION_VECTORS.equals(entry.indexFile().indexType())) {
        files.add(entry.indexFile());
      }
    }
    return new BucketDeletionVectors(
        new DeletionVectorIndexFile(
            table.fileIO(),
            new IndexFilePaths(table.paths()),
            BucketDeletionVectors.ONE_FILE_PER_BUCKET),
        files,
        table.options().get(TableOptions.DELETION_VECTORS_BITMAP64));
  }

  private CommitMessage compactAppend(DataSplit split, boolean full) {
    List<String> blobColumns = BlobColumns.of(table.rowType(), table.options());
    if (!blobColumns.isEmpty()) {
      return compactBlobTable(split, full, blobColumns);
    }
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

  /** Merges runs of adjacent data files; blob files stay, so the runs' ids must too. */
  private CommitMessage compactBlobTable(DataSplit split, boolean full, List<String> blobColumns) {
    List<List<DataFileMeta>> runs =
        BlobCompaction.pick(
            split.files(),
            blobColumns,
            full,
            table.options().get(WriteOptions.TARGET_FILE_SIZE),
            settings.minFileNum(),
            settings.maxFileNum());
    BlobCompactRewriter rewriter = new BlobCompactRewriter(table, blobColumns);
    List<DataFileMeta> before = new ArrayList<>();
    List<DataFileMeta> after = new ArrayList<>();
    try {
      for (List<DataFileMeta> run : runs) {
        after.add(rewriter.rewrite(split.partition(), split.bucket(), split.totalBuckets(), run));
        before.addAll(run);
      }
    } catch (RuntimeException e) {
      // the runs merged so far are not committed: their files would be orphans
      for (DataFileMeta file : after) {
        table
            .fileIO()
            .delete(
                new org.apache.hadoop.fs.Path(
                    table.dataFilePaths().bucketDir(split.partition(), split.bucket()),
                    file.fileName()),
                false);
      }
      throw e;
    }
    return new CommitMessage(
        split.partition(), split.bucket(), split.totalBuckets(), List.of(), before, after);
  }
}

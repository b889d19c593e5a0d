package io.basalt.operation.write;

import io.basalt.blob.BlobColumns;
import io.basalt.bucket.PostponedBucket;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.changelog.LookupProducer;
import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.IndexFilePaths;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.CompactionSettings;
import io.basalt.options.TableOptions;
import io.basalt.rowtracking.RowTracking;
import io.basalt.table.FileStoreTable;
import java.util.Comparator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/** Builds the writer of one (partition, bucket), so that {@link TableWrite} only routes rows. */
final class BucketWriterFactory {
  private final FileStoreTable table;
  private final WriteContext context;
  // the settings of the postponed bucket's writers: Paimon's file name prefix; null on other tables
  @Nullable private final WriteContext postponedContext;
  private final DataFilePaths dataPaths;
  private final BucketState state;
  @Nullable private final KeyValueLayout layout;
  private final CompactionSettings compaction;
  private final WriteResources resources;
  @Nullable private final Comparator<InternalRow> versionOrder;
  @Nullable private final MergeEngine mergeEngine;
  private final boolean inputChangelog;
  @Nullable private CompactRewriter rewriter;
  @Nullable private LookupPromotion promotion;

  BucketWriterFactory(
      FileStoreTable table,
      WriteContext context,
      BucketState state,
      @Nullable KeyValueLayout layout,
      CompactionSettings compaction,
      WriteResources resources) {
    this.table = table;
    this.context = context;
    this.postponedContext =
        PostponedBucket.isPostponed(table)
            ? context.withDataFilePrefix(PostponedBucket.newWriterPrefix())
            : null;
    this.dataPaths = table.dataFilePaths();
    this.state = state;
    this.layout = layout;
    this.compaction = compaction;
    this.resources = resources;
    this.versionOrder =
        layout == null
            ? null
            : SequenceOrder.of(table.schema(), table.options(), table.name())
                .comparator(layout, table.schema().fields());
    this.mergeEngine = layout == null ? null : MergeEngine.of(table);
    this.inputChangelog =
        layout != null
            && ChangelogOptions.INPUT.equals(ChangelogProducerGuard.producer(table.options()));
  }

  /**
   * A new writer of {@code bucket} of {@code partition}.
   *
   * @param sharedWith the dynamic buckets of the table when another task may write the bucket too
   *     (a dynamic bucket another assigner owns), else null: such a bucket is never compacted here,
   *     or two tasks could replace the same files
   */
  BucketWriter newWriter(BinaryRow partition, int bucket, @Nullable DynamicBuckets sharedWith) {
    boolean shared = sharedWith != null;
    boolean compacts = !compaction.writeOnly() && !shared;
    long firstSequence = state.nextSequence(partition, bucket);
    return bucket == PostponedBucket.BUCKET
        ? postponedWriter(partition, firstSequence)
        : layout == null
            ? new AppendBucketWriter(
                context,
                target(partition, bucket),
                state.files(partition, bucket),
                firstSequence,
                compaction.writeOnly() ? null : new AppendCompactRewriter(table),
                compaction,
                RowTracking.enabled(table.options()),
                BlobColumns.of(table.rowType(), table.options()),
                BlobColumns.targetFileSize(table.options()))
            : new KeyValueBucketWriter(
                context,
                layout,
                versionOrder,
                mergeEngine,
                compaction,
                compacts ? rewriter() : null,
                target(partition, bucket),
                state.files(partition, bucket),
                firstSequence,
                table.name(),
                shared
                    ? sharedLookupMode(partition, bucket, sharedWith)
                    : lookupMode(partition, bucket),
                inputChangelog,
                resources);
  }

  /**
   * A writer of the postponed bucket: it only flushes sorted runs to level 0, since the rows are
   * compacted into their real buckets later. Sequence numbers continue after the partition's
   * postponed files, so that compaction merges the versions of a key in write order.
   */
  private BucketWriter postponedWriter(BinaryRow partition, long firstSequence) {
    return new KeyValueBucketWriter(
        postponedContext,
        layout,
        versionOrder,
        mergeEngine,
        compaction,
        null,
        target(partition, PostponedBucket.BUCKET),
        List.of(),
        firstSequence,
        table.name(),
        null,
        inputChangelog,
        resources);
  }

  @Nullable
  private KeyValueBucketWriter.LookupMode sharedLookupMode(
      BinaryRow partition, int bucket, DynamicBuckets sharedWith) {
    if (lookupMode(partition, bucket) != null) {
      throw sharedWith.foreignBucketNeedsLookup(bucket);
    }
    return null;
  }

  @Nullable
  private KeyValueBucketWriter.LookupMode lookupMode(BinaryRow partition, int bucket) {
    boolean vectors = table.options().get(TableOptions.DELETION_VECTORS_ENABLED);
    boolean changelog = LookupProducer.enabled(table.options());
    if (!(vectors || mergeEngine.hidesLevel0() || changelog) || compaction.writeOnly()) {
      return null;
    }
    if (promotion == null) {
      promotion = new LookupPromotion(table, layout, versionOrder);
    }
    if (!vectors) {
      return new KeyValueBucketWriter.LookupMode(null, promotion);
    }
    return new KeyValueBucketWriter.LookupMode(
        new BucketDeletionVectors(
            new DeletionVectorIndexFile(
                table.fileIO(),
                new IndexFilePaths(table.paths()),
                BucketDeletionVectors.ONE_FILE_PER_BUCKET),
            state.deletionVectorFiles(partition, bucket),
            table.options().get(TableOptions.DELETION_VECTORS_BITMAP64)),
        promotion);
  }

  private KeyValueBucketWriter.Target target(BinaryRow partition, int bucket) {
    return new KeyValueBucketWriter.Target(
        partition, bucket, state.totalBuckets(partition), dataPaths.bucketDir(partition, bucket));
  }

  private CompactRewriter rewriter() {
    if (rewriter == null) {
      rewriter = new CompactRewriter(table);
    }
    return rewriter;
  }
}

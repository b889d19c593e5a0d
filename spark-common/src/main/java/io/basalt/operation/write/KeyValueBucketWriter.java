package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.RowKind;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.KeyValues;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.NewRunPlacement;
import io.basalt.mergetree.compact.UniversalCompaction;
import io.basalt.options.CompactionSettings;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The writer of one primary-key bucket: stamps each row with the bucket's next sequence number,
 * buffers it, flushes the buffer, sorted and merged by the table's merge engine, as a level-0 file,
 * and compacts the bucket's sorted runs when they reach the trigger. Compaction runs on the write's
 * compaction thread ({@link BackgroundCompaction}); the writer waits for it only when its bucket
 * has more sorted runs than {@code num-sorted-run.stop-trigger}, and before it finishes.
 */
final class KeyValueBucketWriter implements BucketWriter {
  private final KeyValues keyValues;
  private final MergeEngine mergeEngine;
  private final RollingDataFileWriter files;
  private final Levels levels;
  private final UniversalCompaction picker;
  @Nullable private final BucketCompaction compaction;
  @Nullable private final BackgroundCompaction background;
  @Nullable private final BucketDeletionVectors deletionVectors;
  private final boolean lookup;
  // the input changelog: the rows as written, sorted per flush or spill, before merging
  @Nullable private final RollingDataFileWriter changelog;
  private final List<DataFileMeta> newFiles = new ArrayList<>();
  private long nextSequence;
  private final boolean spillable;
  private final int maxSpillFiles;
  private final java.nio.file.Path spillDir;
  private int spills;
  private int flushes;

  KeyValueBucketWriter(
      WriteContext context,
      KeyValueLayout layout,
      Comparator<InternalRow> versionOrder,
      MergeEngine mergeEngine,
      CompactionSettings compaction,
      @Nullable CompactRewriter rewriter,
      Target target,
      List<DataFileMeta> existingFiles,
      long firstSequence,
      String tableName,
      @Nullable LookupMode lookup,
      boolean inputChangelog,
      WriteResources resources) {
    this.mergeEngine = mergeEngine;
    this.keyValues =
        new KeyValues(
            layout,
            tableName,
            versionOrder,
            () -> mergeEngine.newMergeFunction(layout, layout.valueFields()),
            resources.pool(),
            resources.projections().of(layout.fileSchema()));
    this.files = new RollingDataFileWriter(context, target.bucketDir(), 0, layout, firstSequence);
    this.changelog =
        inputChangelog
            ? new RollingDataFileWriter(
                context,
                target.bucketDir(),
                0,
                layout,
                firstSequence,
                DataFileMeta.SOURCE_APPEND,
                RollingDataFileWriter.CHANGELOG_PREFIX)
            : null;
    this.levels = new Levels(layout.keyType(), compaction.numLevels(), existingFiles);
    this.picker = new UniversalCompaction(compaction);
    this.compaction =
        rewriter == null
            ? null
            : new BucketCompaction(
                rewriter,
                levels,
                target.partition(),
                target.bucket(),
                target.totalBuckets(),
                target.bucketDir(),
                context.conf());
    this.deletionVectors = lookup == null ? null : lookup.vectors();
    this.lookup = lookup != null;
    // lookup writers move level 0 up at the end of the write only, on the writer's thread
    this.background =
        this.compaction == null || this.lookup
            ? null
            : new BackgroundCompaction(
                this.compaction,
                picker,
                levels,
                resources.compactions(),
                compaction.stopTrigger(),
                String.format(
                    "bucket %d (%s) of table %s", target.bucket(), target.bucketDir(), tableName));
    if (this.compaction != null && lookup != null) {
      this.compaction.withLookup(lookup.vectors(), lookup.promotion());
    }
    this.nextSequence = firstSequence;
    this.spillable = context.spillable();
    this.maxSpillFiles = context.maxSpillFiles();
    this.spillDir = context.spillDir();
  }

  /**
   * How level 0 moves up at the end of a write: by {@code promotion}'s lookup, maintaining the
   * deletion vectors {@code vectors} when the table has them (first-row tables may not).
   */
  record LookupMode(@Nullable BucketDeletionVectors vectors, LookupPromotion promotion) {}

  /** Where a bucket writer writes. */
  record Target(BinaryRow partition, int bucket, int totalBuckets, Path bucketDir) {}

  @Override
  public void write(InternalRow row) {
    write(row, RowKind.INSERT);
  }

  @Override
  public void write(InternalRow row, RowKind kind) {
    tryWrite(row, kind, true);
  }

  @Override
  public boolean tryWrite(InternalRow row, RowKind kind, boolean force) {
    // the merge engine drops retractions with ignore-delete and rejects those it cannot apply
    if (!mergeEngine.acceptsWrite(kind)) {
      return true;
    }
    if (!keyValues.tryAdd(row, nextSequence, kind.value(), force)) {
      return false;
    }
    nextSequence++;
    return true;
  }

  @Override
  public long memoryUsed() {
    return keyValues.memoryUsed();
  }

  /**
   * Frees the buffer's memory: spills it to local disk when allowed, otherwise writes everything
   * buffered and spilled out as a level-0 file.
   */
  @Override
  public void flush() {
    if (spillable && keyValues.spillCount() < maxSpillFiles) {
      writeChangelog();
      keyValues.spill(spillDir);
      spills++;
      return;
    }
    flushToFile(false);
  }

  /** How many times the buffer spilled to local disk. */
  int spills() {
    return spills;
  }

  /** Bytes spilled to local disk. */
  long spilledBytes() {
    return keyValues.spilledBytes();
  }

  /**
   * @param last whether this is the write's final flush
   */
  private void flushToFile(boolean last) {
    if (keyValues.isEmpty()) {
      keyValues.clear(); // gives back the memory an empty buffer may hold
      return;
    }
    writeChangelog();
    try (CloseableIterator<InternalRow> sorted = keyValues.sortedMerged()) {
      while (sorted.hasNext()) {
        files.write(sorted.next());
      }
    }
    // each flush is its own sorted run: close the file so runs never share one
    List<DataFileMeta> all = files.finish();
    List<DataFileMeta> flushed = placed(all.subList(newFiles.size(), all.size()), last);
    keyValues.clear();
    flushes++;
    levels.update(List.of(), flushed);
    newFiles.addAll(flushed);
    compactWhileDue();
  }

  /**
   * The flushed run at its level: the top level when it is the whole write into a bucket that was
   * empty (see {@link NewRunPlacement}), level 0 otherwise.
   */
  private List<DataFileMeta> placed(List<DataFileMeta> flushed, boolean last) {
    if (!last || !newFiles.isEmpty() || compaction == null || !compaction.newRunMayGoToTop()) {
      return flushed;
    }
    return NewRunPlacement.atLevel(flushed, NewRunPlacement.level(levels, flushed));
  }

  /** Writes the buffered rows as written to the changelog, as files of their own. */
  private void writeChangelog() {
    if (changelog == null) {
      return;
    }
    Iterator<? extends InternalRow> rows = keyValues.sortedUnmerged();
    while (rows.hasNext()) {
      changelog.write(rows.next());
    }
    changelog.finish(); // one sorted run per file, like the data files
  }

  private void compactWhileDue() {
    // write-only writers leave compaction to a separate job; lookup writers (deletion vectors,
    // first-row) first move level 0 up at the end of the write, and only then merge upper levels
    if (background != null) {
      background.afterFlush();
    }
  }

  /** How many times the buffer was flushed. */
  int flushes() {
    return flushes;
  }

  @Override
  public Result finish(boolean fullCompaction) {
    flushToFile(true);
    Result result = finishData(fullCompaction);
    // the compactions' changelog (lookup promotions, full compactions) is in the result already
    return changelog == null ? result : result.withChangelog(changelog.finish());
  }

  private Result finishData(boolean fullCompaction) {
    if (compaction == null) {
      return new Result(List.copyOf(newFiles), List.of(), List.of());
    }
    if (background != null) {
      // every committed message is complete: the running compaction first, then what is still due
      background.await();
      compaction.compactWhileDue(picker);
    }
    if (lookup) {
      compaction.promoteLevel0();
      compaction.compactWhileDue(picker);
    }
    if (fullCompaction) {
      compaction.full();
    }
    if (deletionVectors == null || !deletionVectors.changed()) {
      return new Result(List.copyOf(newFiles), compaction.before(), compaction.after())
          .withCompactChangelog(compaction.changelog());
    }
    return new Result(
            List.copyOf(newFiles),
            compaction.before(),
            compaction.after(),
            deletionVectors.write(),
            deletionVectors.current())
        .withCompactChangelog(compaction.changelog());
  }

  @Override
  public void abort() {
    try {
      if (background != null) {
        background.abort();
      }
    } finally {
      abortFiles();
    }
  }

  private void abortFiles() {
    keyValues.clear();
    files.abort();
    if (changelog != null) {
      changelog.abort();
    }
    if (compaction != null) {
      compaction.abort();
    }
  }
}

package io.basalt.operation.write;

import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.changelog.FullCompactionChangelog;
import io.basalt.changelog.RowValueComparison;
import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.merge.MergeFunction;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.operation.read.SplitRead;
import io.basalt.options.ChangelogOptions;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Runs a compaction: merges the runs of a {@link CompactUnit} with the table's merge engine and
 * writes the result into the unit's output level; retractions stay when older data lies below the
 * output. A unit of one file whose rows need no merging is moved to the output level without a
 * rewrite.
 */
public final class CompactRewriter {
  private final FileStoreTable table;
  private final WriteContext context;
  private final KeyValueLayout layout;
  private final Comparator<InternalRow> versionOrder;
  private final SplitRead read;
  private final MergeEngine mergeEngine;
  private final boolean fullCompactionChangelog;

  public CompactRewriter(FileStoreTable table) {
    this.table = table;
    this.context = WriteContext.of(table);
    this.layout = new KeyValueLayout(table.schema());
    this.versionOrder =
        SequenceOrder.of(table.schema(), table.options(), table.name())
            .comparator(layout, table.schema().fields());
    this.read = table.newRead(table.rowType());
    this.mergeEngine = MergeEngine.of(table);
    this.fullCompactionChangelog =
        ChangelogOptions.FULL_COMPACTION.equals(ChangelogProducerGuard.producer(table.options()));
  }

  /**
   * Whether compactions into the top level produce the changelog ({@code changelog-producer} =
   * {@code full-compaction} on a primary-key table).
   */
  public boolean producesChangelogAtTopLevel() {
    return fullCompactionChangelog;
  }

  /** The files that replace {@code unit}'s files. */
  public List<DataFileMeta> rewrite(
      BinaryRow partition, int bucket, int totalBuckets, CompactUnit unit) {
    return rewrite(partition, bucket, totalBuckets, unit, file -> null);
  }

  /**
   * Like {@link #rewrite(BinaryRow, int, int, CompactUnit)}, leaving out the rows {@code
   * deletionVectors} (by data file name) mark deleted.
   */
  public List<DataFileMeta> rewrite(
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      CompactUnit unit,
      Function<String, DeletionVector> deletionVectors) {
    return rewrite(partition, bucket, totalBuckets, unit, deletionVectors, false).files();
  }

  /**
   * The files that replace a compaction's files, and the changelog files it wrote.
   *
   * @param files the files replacing the unit's files
   * @param changelog the changelog files ({@code full-compaction} producer); empty otherwise
   */
  public record Rewritten(List<DataFileMeta> files, List<DataFileMeta> changelog) {}

  /**
   * Like {@link #rewrite(BinaryRow, int, int, CompactUnit, Function)}; with {@code changelog} (a
   * compaction into the top level of a {@code full-compaction} producer table), also writes the
   * changes between the top level before and after as changelog files, while merging. A file that
   * only moves up is read for its changelog, not rewritten.
   */
  public Rewritten rewrite(
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      CompactUnit unit,
      Function<String, DeletionVector> deletionVectors,
      boolean changelog) {
    List<DataFileMeta> files = unit.files();
    boolean rewriteData = true;
    if (files.size() == 1) {
      DataFileMeta only = files.get(0);
      boolean nothingDeleted = deletionVectors.apply(only.fileName()) == null;
      boolean retractionsStay =
          !unit.dropRetractions() || Long.valueOf(0).equals(only.deleteRowCount());
      rewriteData = !(retractionsStay && nothingDeleted);
      if (!rewriteData && (!changelog || only.level() == unit.outputLevel())) {
        return new Rewritten(List.of(only.withLevel(unit.outputLevel())), List.of());
      }
    }
    DataSplit split = new DataSplit(0, partition, bucket, totalBuckets, files, false);
    Path bucketDir = table.dataFilePaths().bucketDir(partition, bucket);
    RollingDataFileWriter writer =
        new RollingDataFileWriter(
            context, bucketDir, unit.outputLevel(), layout, 0, DataFileMeta.SOURCE_COMPACT);
    RollingDataFileWriter changelogWriter =
        changelog
            ? new RollingDataFileWriter(
                context,
                bucketDir,
                unit.outputLevel(),
                layout,
                0,
                DataFileMeta.SOURCE_COMPACT,
                RollingDataFileWriter.CHANGELOG_PREFIX)
            : null;
    try (MergeIterator merged =
        merge(split, unit, deletionVectors, changelogWriter, maxFileLevel(files))) {
      while (merged.hasNext()) {
        InternalRow row = merged.next();
        if (rewriteData) {
          writer.write(row);
        }
      }
      List<DataFileMeta> written =
          rewriteData ? writer.finish() : List.of(files.get(0).withLevel(unit.outputLevel()));
      return new Rewritten(written, changelogWriter == null ? List.of() : changelogWriter.finish());
    } catch (RuntimeException e) {
      writer.abort();
      if (changelogWriter != null) {
        changelogWriter.abort();
      }
      throw e;
    }
  }

  private static int maxFileLevel(List<DataFileMeta> files) {
    int max = 0;
    for (DataFileMeta file : files) {
      max = Math.max(max, file.level());
    }
    return max;
  }

  /**
   * The merge of the unit's runs; with a changelog writer, wrapped to produce the full-compaction
   * changelog, the top level being the unit's files on {@code topLevel} (the output level).
   */
  private MergeIterator merge(
      DataSplit split,
      CompactUnit unit,
      Function<String, DeletionVector> deletionVectors,
      @Nullable RollingDataFileWriter changelogWriter,
      int topLevel) {
    List<CloseableIterator<InternalRow>> runs =
        read.openRuns(split, layout, layout.fileSchema(), deletionVectors);
    MergeFunction function = mergeEngine.newMergeFunction(layout, layout.valueFields());
    if (changelogWriter != null) {
      // runs come newest first, so the top level, when the unit has it, is the last run
      boolean hasTop = topLevel == unit.outputLevel() && !runs.isEmpty();
      FullCompactionChangelog.TopLevelRun top =
          new FullCompactionChangelog.TopLevelRun(hasTop ? runs.get(runs.size() - 1) : null);
      if (hasTop) {
        runs.set(runs.size() - 1, top);
      }
      function =
          new FullCompactionChangelog(function, top, layout, changelogWriter::write, deduplicate());
    }
    return new MergeIterator(
        runs,
        layout,
        versionOrder,
        function,
        !unit.dropRetractions(),
        read.mergedRuns(split, layout));
  }

  @Nullable
  private RowValueComparison deduplicate() {
    return RowValueComparison.of(layout, table.options(), table.name());
  }
}

package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
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

  public CompactRewriter(FileStoreTable table) {
    this.table = table;
    this.context = WriteContext.of(table);
    this.layout = new KeyValueLayout(table.schema());
    this.versionOrder =
        SequenceOrder.of(table.schema(), table.options(), table.name())
            .comparator(layout, table.schema().fields());
    this.read = table.newRead(table.rowType());
    this.mergeEngine = MergeEngine.of(table);
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
    List<DataFileMeta> files = unit.files();
    if (files.size() == 1) {
      DataFileMeta only = files.get(0);
      boolean nothingDeleted = deletionVectors.apply(only.fileName()) == null;
      boolean retractionsStay =
          !unit.dropRetractions() || Long.valueOf(0).equals(only.deleteRowCount());
      if (retractionsStay && nothingDeleted) {
        return List.of(only.withLevel(unit.outputLevel()));
      }
    }
    DataSplit split = new DataSplit(0, partition, bucket, totalBuckets, files, false);
    RollingDataFileWriter writer =
        new RollingDataFileWriter(
            context,
            table.dataFilePaths().bucketDir(partition, bucket),
            unit.outputLevel(),
            layout,
            0,
            DataFileMeta.SOURCE_COMPACT);
    try (MergeIterator merged =
        new MergeIterator(
            read.openRuns(split, layout, layout.fileSchema(), deletionVectors),
            layout,
            versionOrder,
            mergeEngine.newMergeFunction(layout, layout.valueFields()),
            !unit.dropRetractions(),
            read.mergedRuns(split, layout))) {
      while (merged.hasNext()) {
        writer.write(merged.next());
      }
      return writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
  }
}

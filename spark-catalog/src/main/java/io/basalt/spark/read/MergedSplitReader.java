package io.basalt.spark.read;

import io.basalt.data.RowKind;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.operation.read.ReadSection;
import io.basalt.operation.read.SplitRead;
import io.basalt.schema.DataField;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.Iterator;
import javax.annotation.Nullable;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads a primary-key split that needs merging as columnar batches, key-range section by section
 * ({@link SplitRead#readSections}). A section the merge would pass through unchanged (one sorted
 * run under deduplicate or first-row, {@link ReadSection#unmerged()}) is read with Spark's
 * vectorized reader like a raw-convertible split, its {@code _VALUE_KIND} column read along to drop
 * the retraction rows with a selection, as deletion vectors drop rows. Any other section is merged
 * by the engine and its rows copied into reused column vectors a batch at a time ({@link
 * RowBatchBuffer}). The batch returned by {@link #get()} is valid until the next {@link #next()}.
 *
 * <p>Metadata columns follow the table columns: only the partition and bucket, constant per split,
 * can be read from a merged split (the planner rejects the others).
 */
final class MergedSplitReader implements PartitionReader<ColumnarBatch> {
  private final FileStoreTable table;
  private final SplitRead read;
  private final VectorizedReadOptions options;
  private final MetadataColumns metadataColumns;
  @Nullable private final MetadataValues metadata;
  private final Iterator<ReadSection> sections;
  private final int dataColumns;

  /** The options of an unmerged section's read: the table columns, then {@code _VALUE_KIND}. */
  private final VectorizedReadOptions unmergedOptions;

  @Nullable private RowBatchBuffer buffer;
  @Nullable private SplitRead.MergedRows merging;
  @Nullable private DataSplit mergingSection;
  @Nullable private VectorizedSplitReader unmerged;
  @Nullable private ColumnarBatch batch;
  private int[] selection = new int[0];

  private long rowsMerged;
  private long unmergedSections;
  private long deletedRowsSkipped;
  private long rowGroupsSkipped;
  private long rowsSkipped;

  MergedSplitReader(
      FileStoreTable table,
      SplitRead read,
      DataSplit split,
      VectorizedReadOptions options,
      MetadataColumns metadataColumns) {
    this.table = table;
    this.read = read;
    this.options = options;
    this.metadataColumns = metadataColumns;
    this.metadata = metadataColumns.isEmpty() ? null : metadataColumns.forSplit(table, split);
    this.sections = read.readSections(split).iterator();
    this.dataColumns = options.requestedSchema().size();
    StructType withKind =
        read.readType()
            .add(
                new DataField(
                        KeyValueLayout.VALUE_KIND_ID,
                        KeyValueLayout.VALUE_KIND,
                        DataTypes.ByteType,
                        false,
                        null)
                    .toStructField());
    this.unmergedOptions = options.withReadSchema(withKind).withFilters(options.filters());
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (unmerged != null) {
        if (unmerged.next()) {
          batch = liveRows(unmerged.get());
          if (batch != null) {
            return true;
          }
          continue;
        }
        closeUnmerged();
      } else if (merging != null) {
        int rows = buffer.fill(merging);
        if (rows > 0) {
          batch = withMetadata(rows);
          return true;
        }
        closeMerging();
      }
      if (!sections.hasNext()) {
        return false;
      }
      open(sections.next());
    }
  }

  private void open(ReadSection section) {
    DataSplit files = section.asSplit();
    if (section.unmerged()) {
      unmergedSections++;
      unmerged =
          new VectorizedSplitReader(
              table, read, files, unmergedOptions, metadataColumns, table.fileIO().conf());
    } else {
      if (buffer == null) {
        buffer =
            new RowBatchBuffer(
                VectorizedReadOptions.requestedSchema(read.readType()),
                options.batchSize(),
                options.offHeap() && TaskContext.get() != null);
      }
      mergingSection = files;
      merging = section.merge();
    }
  }

  /** The copied rows of the merge, with the metadata columns after them. */
  private ColumnarBatch withMetadata(int rows) {
    ColumnVector[] metadataVectors =
        metadata == null ? new ColumnVector[0] : metadata.vectors(rows, null);
    ColumnVector[] columns = new ColumnVector[dataColumns + metadataVectors.length];
    System.arraycopy(buffer.vectors(), 0, columns, 0, dataColumns);
    System.arraycopy(metadataVectors, 0, columns, dataColumns, metadataVectors.length);
    return new ColumnarBatch(columns, rows);
  }

  /**
   * The rows of an unmerged section's batch that the merge would keep (the adds), without the
   * {@code _VALUE_KIND} column; null if it keeps none.
   */
  @Nullable
  private ColumnarBatch liveRows(ColumnarBatch read) {
    ColumnVector kinds = read.column(dataColumns);
    ColumnVector[] columns = new ColumnVector[read.numCols() - 1];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = read.column(i < dataColumns ? i : i + 1);
    }
    int rows = read.numRows();
    if (selection.length < rows) {
      selection = new int[rows];
    }
    int live = 0;
    for (int i = 0; i < rows; i++) {
      if (RowKind.isAdd(kinds.getByte(i))) {
        selection[live++] = i;
      }
    }
    ColumnarBatch data = new ColumnarBatch(columns, rows);
    if (live == rows) {
      return data;
    }
    return live == 0 ? null : SelectedRowsVector.select(data, selection, live);
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    long[] skips = {rowGroupsSkipped, rowsSkipped, deletedRowsSkipped};
    if (unmerged != null) {
      addSkips(unmerged, skips);
    }
    return new CustomTaskMetric[] {
      ColumnarSplitsMetric.taskValue(0),
      MergedSplitsMetric.taskValue(1),
      RowsMergedMetric.taskValue(rowsMerged + (merging == null ? 0 : merging.mergedRows())),
      UnmergedSectionsMetric.taskValue(unmergedSections),
      DeletedRowsSkippedMetric.taskValue(skips[2]),
      ColumnarSplitsMetric.taskValue(ParquetFilterMetrics.RowGroupsSkipped.NAME, skips[0]),
      ColumnarSplitsMetric.taskValue(ParquetFilterMetrics.RowsSkipped.NAME, skips[1])
    };
  }

  /** Adds the row groups, rows and deleted rows {@code reader} skipped to {@code skips}. */
  private static void addSkips(VectorizedSplitReader reader, long[] skips) {
    for (CustomTaskMetric metric : reader.currentMetricsValues()) {
      switch (metric.name()) {
        case ParquetFilterMetrics.RowGroupsSkipped.NAME -> skips[0] += metric.value();
        case ParquetFilterMetrics.RowsSkipped.NAME -> skips[1] += metric.value();
        case DeletedRowsSkippedMetric.NAME -> skips[2] += metric.value();
        default -> {}
      }
    }
  }

  private void closeUnmerged() throws IOException {
    VectorizedSplitReader closing = unmerged;
    long[] skips = {rowGroupsSkipped, rowsSkipped, deletedRowsSkipped};
    addSkips(closing, skips);
    rowGroupsSkipped = skips[0];
    rowsSkipped = skips[1];
    deletedRowsSkipped = skips[2];
    unmerged = null;
    closing.close();
  }

  private void closeMerging() {
    SplitRead.MergedRows closing = merging;
    rowsMerged += closing.mergedRows();
    // the merge read its files whole: every row their deletion vectors delete was skipped
    for (int i = 0; i < mergingSection.files().size(); i++) {
      DeletionFile deletion = mergingSection.deletionFile(i);
      if (deletion != null && deletion.cardinality() != null) {
        deletedRowsSkipped += deletion.cardinality();
      }
    }
    merging = null;
    mergingSection = null;
    closing.close();
  }

  @Override
  public void close() throws IOException {
    try {
      if (unmerged != null) {
        closeUnmerged();
      }
      if (merging != null) {
        merging.close();
        merging = null;
      }
    } finally {
      if (buffer != null) {
        buffer.close();
        buffer = null;
      }
    }
  }
}

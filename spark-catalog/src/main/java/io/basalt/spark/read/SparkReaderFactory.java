package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Creates, in tasks, the readers of splits: columnar readers when the scan is columnar ({@link
 * ColumnarReads}; splits that need merging through {@link MergedSplitReader}), streaming row
 * readers otherwise.
 */
@DefaultSerializer(JavaSerializer.class)
final class SparkReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  private final SplitRead read;
  @Nullable private final VectorizedReadOptions columnar;
  @Nullable private final OrcReadOptions orc;
  private final MetadataColumns metadata;

  /**
   * @param read reads the table columns of the scan
   * @param columnar the options of the columnar read, or null for a row scan
   * @param orc the options of the columnar read of ORC files, or null for a row scan
   * @param metadata the metadata columns of the scan, produced after the table columns
   */
  SparkReaderFactory(
      FileStoreTable table,
      SplitRead read,
      @Nullable VectorizedReadOptions columnar,
      @Nullable OrcReadOptions orc,
      MetadataColumns metadata) {
    this.table = table;
    this.read = read;
    this.columnar = columnar;
    this.orc = orc;
    this.metadata = metadata;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return columnar != null;
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    if (columnar == null) {
      throw new UnsupportedOperationException("This scan reads rows, not columnar batches");
    }
    List<Supplier<PartitionReader<ColumnarBatch>>> readers = new ArrayList<>();
    // the task's splits share Parquet read contexts: a configuration copy per split or per file
    // cost more than reading a small file's footer
    ParquetReadContexts.PerTask contexts =
        new ParquetReadContexts.PerTask(columnar, table.fileIO().conf());
    for (DataSplit split : ((SparkInputPartition) partition).splits()) {
      readers.add(
          () ->
              ColumnarReads.needsMerge(table, split)
                  ? new MergedSplitReader(table, read, split, columnar, metadata)
                  : OrcSplitReader.readsOrc(split)
                      ? new OrcSplitReader(
                          table, read, split, columnar, orc, metadata, table.fileIO().conf())
                      : new VectorizedSplitReader(
                          table, read, split, columnar, metadata, contexts));
    }
    return new ChainedPartitionReader<>(readers);
  }

  /** The rows the deletion vectors of {@code split} delete, as far as their files record it. */
  private static long deletedRows(DataSplit split) {
    long rows = 0;
    for (int i = 0; i < split.files().size(); i++) {
      DeletionFile deletion = split.deletionFile(i);
      if (deletion != null && deletion.cardinality() != null) {
        rows += deletion.cardinality();
      }
    }
    return rows;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    List<Supplier<PartitionReader<InternalRow>>> readers = new ArrayList<>();
    for (DataSplit split : ((SparkInputPartition) partition).splits()) {
      readers.add(() -> rowReader(split));
    }
    return new ChainedPartitionReader<>(readers);
  }

  private PartitionReader<InternalRow> rowReader(DataSplit split) {
    CloseableIterator<InternalRow> data;
    CloseableIterator<InternalRow> rows;
    if (metadata.isEmpty()) {
      data = read.read(split);
      rows = data;
    } else if (metadata.needsSingleFile()) {
      // file path, row index or row tracking: the split is not merged (checked at planning)
      data =
          MetadataRows.perFile(
              table, read, split, metadata.forSplit(table, split), metadata.rowTracking());
      rows = data;
    } else {
      data = read.read(split);
      rows = MetadataRows.perSplit(data, metadata.forSplit(table, split));
    }
    // the merge path: SplitRead merges the splits of primary-key tables that are not raw
    // convertible
    boolean merged = data instanceof SplitRead.MergedRows;
    long deletions = deletedRows(split);
    return new PartitionReader<>() {
      private InternalRow current;
      private boolean done;

      @Override
      public boolean next() {
        if (rows.hasNext()) {
          current = rows.next();
          return true;
        }
        done = true;
        return false;
      }

      @Override
      public InternalRow get() {
        return current;
      }

      @Override
      public CustomTaskMetric[] currentMetricsValues() {
        return new CustomTaskMetric[] {
          ColumnarSplitsMetric.taskValue(0),
          MergedSplitsMetric.taskValue(merged ? 1 : 0),
          RowsMergedMetric.taskValue(merged ? ((SplitRead.MergedRows) data).mergedRows() : 0),
          // files are read whole on the row path: once done, every deleted row was skipped
          DeletedRowsSkippedMetric.taskValue(done ? deletions : 0)
        };
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }
}

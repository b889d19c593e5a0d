package io.basalt.spark.read;

import io.basalt.operation.read.SplitRead;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Creates, in tasks, the readers of splits: columnar readers when the scan is columnar (every split
 * raw convertible, see {@link SparkScan}), streaming row readers otherwise.
 */
final class SparkReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  private final SplitRead read;
  @Nullable private final VectorizedReadOptions columnar;

  /**
   * @param columnar the options of the columnar read, or null for a row scan
   */
  SparkReaderFactory(
      FileStoreTable table, SplitRead read, @Nullable VectorizedReadOptions columnar) {
    this.table = table;
    this.read = read;
    this.columnar = columnar;
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
    return new VectorizedSplitReader(
        read, ((SparkInputPartition) partition).split(), columnar, table.fileIO().conf());
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    CloseableIterator<InternalRow> rows = read.read(((SparkInputPartition) partition).split());
    return new PartitionReader<>() {
      private InternalRow current;

      @Override
      public boolean next() {
        if (rows.hasNext()) {
          current = rows.next();
          return true;
        }
        return false;
      }

      @Override
      public InternalRow get() {
        return current;
      }

      @Override
      public CustomTaskMetric[] currentMetricsValues() {
        return new CustomTaskMetric[] {ColumnarSplitsMetric.taskValue(0)};
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }
}

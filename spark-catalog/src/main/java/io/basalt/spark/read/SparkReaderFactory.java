package io.basalt.spark.read;

import io.basalt.operation.read.SplitRead;
import io.basalt.utils.CloseableIterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Creates, in tasks, the row readers of splits. */
final class SparkReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final SplitRead read;

  SparkReaderFactory(SplitRead read) {
    this.read = read;
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
      public void close() {
        rows.close();
      }
    };
  }
}

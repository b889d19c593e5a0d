package io.basalt.spark.read;

import io.basalt.data.RowKind;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRead;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/**
 * Creates, in tasks, the row readers of a change read. Without row kinds (a batch read of changes)
 * retractions are dropped: -D rows are no data (seed 003) and -U rows are not part of the final
 * image.
 */
final class IncrementalReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final IncrementalRead read;
  private final boolean rowKinds;

  IncrementalReaderFactory(IncrementalRead read, boolean rowKinds) {
    this.read = read;
    this.rowKinds = rowKinds;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    ChangeIterator changes = read.read(((IncrementalInputPartition) partition).split());
    ChangeRows kinds = new ChangeRows();
    return new PartitionReader<>() {
      private InternalRow current;

      @Override
      public boolean next() {
        while (changes.hasNext()) {
          InternalRow row = changes.next();
          RowKind kind = changes.kind();
          if (rowKinds) {
            current = kinds.withKind(kind, row);
            return true;
          }
          if (RowKind.isAdd(kind.value())) {
            current = row;
            return true;
          }
        }
        return false;
      }

      @Override
      public InternalRow get() {
        return current;
      }

      @Override
      public void close() {
        changes.close();
      }
    };
  }
}

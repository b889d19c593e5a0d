package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.data.RowKind;
import io.basalt.operation.incremental.ChangeIterator;
import io.basalt.operation.incremental.IncrementalRead;
import java.util.Iterator;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Creates, in tasks, the row readers of a change read. Without row kinds (a batch read of changes)
 * retractions are dropped: -D rows are no data (seed 003) and -U rows are not part of the final
 * image.
 */
@DefaultSerializer(JavaSerializer.class)
public final class IncrementalReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final IncrementalRead read;
  private final boolean rowKinds;
  @Nullable private final StructType binlogData;

  /**
   * @param rowKinds whether rows keep their kinds in a leading column (and retractions stay)
   * @param binlogData the table columns read, when the rows are {@code t$binlog} rows; else null
   */
  public IncrementalReaderFactory(
      IncrementalRead read, boolean rowKinds, @Nullable StructType binlogData) {
    this.read = read;
    this.rowKinds = rowKinds;
    this.binlogData = binlogData;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    ChangeIterator changes = read.read(((IncrementalInputPartition) partition).split());
    if (binlogData != null) {
      return binlogReader(changes);
    }
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

  private PartitionReader<InternalRow> binlogReader(ChangeIterator changes) {
    Iterator<InternalRow> rows = BinlogRows.of(changes, binlogData);
    return new PartitionReader<>() {
      private InternalRow current;

      @Override
      public boolean next() {
        current = rows.hasNext() ? rows.next() : null;
        return current != null;
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

package io.basalt.spark.read;

import io.basalt.utils.Check;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructType;

/**
 * Reused column vectors that rows are copied into, a batch at a time, by writers chosen once per
 * column ({@link ColumnWriter}): the columnar form of rows that only exist as rows, such as the
 * output of a merge. Rows may be reused by their iterator, since each is copied before the next is
 * asked for. Close it to free the vectors (off-heap vectors hold native memory).
 */
final class RowBatchBuffer implements AutoCloseable {
  private final WritableColumnVector[] vectors;
  private final ColumnWriter[] writers;
  private final int capacity;

  /**
   * @param schema the rows' columns, each of a type {@link #supports} accepts
   * @param capacity the most rows of one batch
   * @param offHeap whether the vectors live off the Java heap
   */
  RowBatchBuffer(StructType schema, int capacity, boolean offHeap) {
    Check.argument(supports(schema), "Cannot copy rows of %s into column vectors", schema);
    this.capacity = capacity;
    this.writers = new ColumnWriter[schema.size()];
    for (int i = 0; i < writers.length; i++) {
      writers[i] = ColumnWriter.of(schema.fields()[i].dataType());
    }
    this.vectors =
        offHeap
            ? OffHeapColumnVector.allocateColumns(capacity, schema)
            : OnHeapColumnVector.allocateColumns(capacity, schema);
  }

  /** Whether every column of {@code schema} has a {@link ColumnWriter}. */
  static boolean supports(StructType schema) {
    for (int i = 0; i < schema.size(); i++) {
      if (ColumnWriter.of(schema.fields()[i].dataType()) == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Empties the vectors and copies up to one batch of {@code rows} into them.
   *
   * @return the number of rows copied; 0 once {@code rows} is exhausted
   */
  int fill(Iterator<InternalRow> rows) {
    for (WritableColumnVector vector : vectors) {
      vector.reset();
    }
    int count = 0;
    while (count < capacity && rows.hasNext()) {
      InternalRow row = rows.next();
      for (int column = 0; column < writers.length; column++) {
        writers[column].write(row, column, vectors[column], count);
      }
      count++;
    }
    return count;
  }

  /** The vectors, holding the rows of the last {@link #fill}. */
  WritableColumnVector[] vectors() {
    return vectors;
  }

  @Override
  public void close() {
    for (WritableColumnVector vector : vectors) {
      vector.close();
    }
  }
}

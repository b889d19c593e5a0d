package io.basalt.mergetree;

import io.basalt.data.RowComparator;
import io.basalt.merge.MergeFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;

/**
 * The in-memory buffer of one bucket writer: key-value rows serialized as UnsafeRows, sorted by
 * (key, version order) when flushed, with the versions of each key merged by the table's merge
 * function. Its owner flushes it to a level-0 file when the writers' shared memory budget is
 * reached.
 */
final class WriteBuffer {
  /** Bytes an UnsafeRow, its byte array and the list slot cost beyond the row data. */
  private static final int ROW_OVERHEAD = 64;

  private final UnsafeProjection toUnsafe;
  private final Comparator<InternalRow> order;
  private final RowComparator keyOrder;
  private final List<UnsafeRow> rows = new ArrayList<>();
  private long memory;

  WriteBuffer(KeyValueLayout layout, StructType fileSchema, Comparator<InternalRow> versionOrder) {
    this.toUnsafe = UnsafeProjection.create(fileSchema);
    this.keyOrder = layout.keyComparator();
    this.order = keyOrder.thenComparing(versionOrder);
  }

  /** Copies {@code keyValue} into the buffer. */
  void add(InternalRow keyValue) {
    UnsafeRow copy = toUnsafe.apply(keyValue).copy();
    rows.add(copy);
    memory += copy.getSizeInBytes() + ROW_OVERHEAD;
  }

  long memoryUsed() {
    return memory;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  /**
   * Sorts the buffer and iterates the merged version of each key, retractions included (a {@code
   * -D} must reach the file to hide older versions). Rows are the merge function's (reused)
   * results. The buffer is cleared by {@link #clear}, not by iterating.
   */
  Iterator<InternalRow> sortedMerged(MergeFunction mergeFunction) {
    rows.sort(order);
    return new Iterator<>() {
      private int next = 0;
      private InternalRow merged;

      @Override
      public boolean hasNext() {
        while (merged == null && next < rows.size()) {
          // buffered rows stay valid, so every version of a key can be fed as it is
          mergeFunction.reset();
          mergeFunction.add(rows.get(next));
          while (next + 1 < rows.size()
              && keyOrder.compare(rows.get(next), rows.get(next + 1)) == 0) {
            mergeFunction.add(rows.get(++next));
          }
          next++;
          merged = mergeFunction.result();
        }
        return merged != null;
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        InternalRow row = merged;
        merged = null;
        return row;
      }
    };
  }

  /**
   * Sorts the buffer and iterates every buffered row, versions of a key unmerged, oldest first: the
   * rows as written, for an input changelog.
   */
  Iterator<UnsafeRow> sorted() {
    rows.sort(order);
    return rows.iterator();
  }

  void clear() {
    rows.clear();
    memory = 0;
  }
}

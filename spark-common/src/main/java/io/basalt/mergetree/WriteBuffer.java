package io.basalt.mergetree;

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
import org.apache.spark.unsafe.Platform;

/**
 * The in-memory buffer of one bucket writer, a binary sort buffer: key-value rows are serialised as
 * UnsafeRow bytes into pages of bytes, and an array of (key prefix, pointer) pairs is sorted by
 * prefix, then full key, then version order. Every page and the pointer array are reserved from a
 * {@link WriteBufferPool} first; when the pool refuses, {@link #tryAdd} says so and the owner frees
 * memory (spills or flushes) before trying again. No object is created per row.
 */
final class WriteBuffer {
  /**
   * Each row is stored as {@code [int size][int unused][UnsafeRow bytes]}, keeping words aligned.
   */
  private static final int ROW_HEADER = 8;

  private static final int MIN_RECORDS = 32;

  private final WriteBufferPool pool;
  private final UnsafeProjection toUnsafe;
  private final UnsafeKeyOrder keyOrder;
  private final Comparator<InternalRow> versionOrder;
  private final int numFields;
  private final List<byte[]> pages = new ArrayList<>();
  private byte[] page;
  private int pageUsed;
  // (prefix, pointer) pairs; pointer = page index << 32 | offset, so pointers grow with arrival
  private long[] records = new long[0];
  private long[] scratch = new long[0];
  private int count;
  private boolean sorted;
  private long memory;
  // views into the pages: two for comparisons, two that merge functions hold alternately
  private final UnsafeRow left;
  private final UnsafeRow right;
  private final UnsafeRow[] outputs;

  /**
   * @param toUnsafe encodes rows of {@code fileSchema}; may be shared with other buffers used on
   *     the same thread, since each result is copied into a page before the next row
   */
  WriteBuffer(
      KeyValueLayout layout,
      StructType fileSchema,
      Comparator<InternalRow> versionOrder,
      WriteBufferPool pool,
      UnsafeProjection toUnsafe) {
    this.pool = pool;
    this.toUnsafe = toUnsafe;
    this.keyOrder = new UnsafeKeyOrder(layout.keyTypes());
    this.versionOrder = versionOrder;
    this.numFields = fileSchema.size();
    this.left = new UnsafeRow(numFields);
    this.right = new UnsafeRow(numFields);
    this.outputs = new UnsafeRow[] {new UnsafeRow(numFields), new UnsafeRow(numFields)};
  }

  /**
   * Copies {@code keyValue} into the buffer, or returns false, changing nothing, when the pool
   * refuses the memory that takes. With {@code force} the memory is taken beyond the budget: for a
   * row that must go in although the buffers are empty.
   */
  boolean tryAdd(InternalRow keyValue, boolean force) {
    UnsafeRow row = toUnsafe.apply(keyValue);
    int size = row.getSizeInBytes();
    // one reservation for both, so a refusal leaves nothing held (a flush could not free it)
    int capacity = 2 * count < records.length ? 0 : Math.max(MIN_RECORDS, count * 2);
    // the pairs and the merge sort's scratch space of the same size: 32 bytes a record
    long recordBytes = capacity == 0 ? 0 : 32L * (capacity - records.length / 2);
    boolean pageFits = page != null && page.length - pageUsed >= ROW_HEADER + size;
    // a row larger than a page gets a page of its own size
    int pageBytes = pageFits ? 0 : Math.max(pool.pageSize(), ROW_HEADER + size);
    if (recordBytes + pageBytes > 0 && !reserve(recordBytes + pageBytes, force)) {
      return false;
    }
    if (capacity > 0) {
      long[] larger = new long[2 * capacity];
      System.arraycopy(records, 0, larger, 0, 2 * count);
      records = larger;
      scratch = new long[2 * capacity];
    }
    if (pageBytes > 0) {
      page = new byte[pageBytes];
      pages.add(page);
      pageUsed = 0;
    }
    long offset = Platform.BYTE_ARRAY_OFFSET + pageUsed;
    Platform.putInt(page, offset, size);
    row.writeToMemory(page, offset + ROW_HEADER);
    records[2 * count] = keyOrder.prefix(row);
    records[2 * count + 1] = ((long) (pages.size() - 1) << 32) | pageUsed;
    pageUsed += ROW_HEADER + size;
    count++;
    sorted = false;
    return true;
  }

  private boolean reserve(long bytes, boolean force) {
    if (force) {
      pool.forceAcquire(bytes);
    } else if (!pool.tryAcquire(bytes)) {
      return false;
    }
    memory += bytes;
    return true;
  }

  /** Bytes reserved from the pool: pages and pointer arrays. */
  long memoryUsed() {
    return memory;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /**
   * Sorts the buffer and iterates the merged version of each key, retractions included (a {@code
   * -D} must reach the file to hide older versions). Rows are the merge function's (reused)
   * results. The buffer is cleared by {@link #clear}, not by iterating.
   */
  Iterator<InternalRow> sortedMerged(MergeFunction mergeFunction) {
    sort();
    return new Iterator<>() {
      private int next = 0;
      private int turn = 0;
      private InternalRow merged;

      @Override
      public boolean hasNext() {
        while (merged == null && next < count) {
          mergeFunction.reset();
          mergeFunction.add(point(outputs[turn], next));
          // the merge function may hold the previous version while it takes the next
          while (next + 1 < count && sameKey(next, next + 1)) {
            turn ^= 1;
            mergeFunction.add(point(outputs[turn], ++next));
          }
          turn ^= 1;
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
   * rows as written, for an input changelog. The row is reused, valid until the next is read.
   */
  Iterator<UnsafeRow> sorted() {
    sort();
    return new Iterator<>() {
      private int next = 0;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public UnsafeRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return point(outputs[0], next++);
      }
    };
  }

  /** Empties the buffer and returns its memory to the pool. */
  void clear() {
    pages.clear();
    page = null;
    pageUsed = 0;
    records = new long[0];
    scratch = new long[0];
    count = 0;
    sorted = false;
    if (memory > 0) {
      pool.release(memory);
      memory = 0;
    }
  }

  private UnsafeRow point(UnsafeRow view, int record) {
    long pointer = records[2 * record + 1];
    byte[] bytes = pages.get((int) (pointer >>> 32));
    long offset = Platform.BYTE_ARRAY_OFFSET + (int) pointer;
    view.pointTo(bytes, offset + ROW_HEADER, Platform.getInt(bytes, offset));
    return view;
  }

  private boolean sameKey(int a, int b) {
    if (records[2 * a] != records[2 * b]) {
      return false;
    }
    return keyOrder.prefixIsKey() || keyOrder.compare(point(left, a), point(right, b)) == 0;
  }

  private void sort() {
    if (!sorted) {
      PointerSort.sort(records, scratch, count, this::compare);
      sorted = true;
    }
  }

  /** Key order, then version order (oldest first); records hold (prefix, pointer) pairs. */
  private int compare(long[] array, int a, long[] other, int b) {
    int c = Long.compareUnsigned(array[2 * a], other[2 * b]);
    if (c != 0) {
      return c;
    }
    pointTo(left, array[2 * a + 1]);
    pointTo(right, other[2 * b + 1]);
    if (!keyOrder.prefixIsKey()) {
      c = keyOrder.compare(left, right);
      if (c != 0) {
        return c;
      }
    }
    return versionOrder.compare(left, right);
  }

  private void pointTo(UnsafeRow view, long pointer) {
    byte[] bytes = pages.get((int) (pointer >>> 32));
    long offset = Platform.BYTE_ARRAY_OFFSET + (int) pointer;
    view.pointTo(bytes, offset + ROW_HEADER, Platform.getInt(bytes, offset));
  }
}

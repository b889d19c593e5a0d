package io.basalt.mergetree;

import io.basalt.data.RowKind;
import io.basalt.merge.MergeFunction;
import io.basalt.utils.CloseableIterator;
import io.basalt.utils.Closeables;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A streaming k-way merge of sorted runs: feeds the versions of each key, oldest first, to the
 * table's {@link MergeFunction} and yields its result; a key whose result is a retraction
 * disappears unless retractions are emitted (merges whose output has older data below). Each run
 * must be sorted by key with every key at most once (as level-0 files and levels are). Memory is
 * one current row per run.
 *
 * <p>The returned row may be a run's own (reused) row or the merge function's view; it is valid
 * until the next call.
 */
public final class MergeIterator implements CloseableIterator<InternalRow> {
  private final List<CloseableIterator<InternalRow>> runs;
  private final PriorityQueue<Head> heap;
  private final Comparator<InternalRow> keyOrder;
  private final int kindIndex;
  private final boolean emitRetractions;
  private final MergeFunction mergeFunction;
  private Head pending;
  private InternalRow next;
  private long mergedRows;

  /** A deduplicating merge ordering versions by sequence number that drops retracted keys. */
  public MergeIterator(List<CloseableIterator<InternalRow>> runs, KeyValueLayout layout) {
    this(runs, layout, SequenceOrder.bySequenceNumber(layout), false);
  }

  /** A deduplicating merge (the newest version wins). */
  public MergeIterator(
      List<CloseableIterator<InternalRow>> runs,
      KeyValueLayout layout,
      Comparator<InternalRow> versionOrder,
      boolean emitRetractions) {
    this(runs, layout, versionOrder, newestWins(layout), emitRetractions);
  }

  /**
   * @param versionOrder orders versions of one key from oldest to newest
   * @param mergeFunction merges the versions of each key
   * @param emitRetractions whether a key whose merged version is a retraction yields that
   *     retraction (compaction into a level with older data below) or disappears (reads)
   */
  public MergeIterator(
      List<CloseableIterator<InternalRow>> runs,
      KeyValueLayout layout,
      Comparator<InternalRow> versionOrder,
      MergeFunction mergeFunction,
      boolean emitRetractions) {
    this(runs, layout, versionOrder, mergeFunction, emitRetractions, new boolean[runs.size()]);
  }

  /**
   * Like {@link #MergeIterator(List, KeyValueLayout, Comparator, MergeFunction, boolean)}, where
   * the rows of some runs are whole merged values (the levels above 0 of a table with the {@code
   * lookup} changelog producer, as Paimon writes them): such a row replaces every older version of
   * its key instead of merging with them.
   *
   * @param mergedRuns for each run, whether its rows are whole merged values
   */
  public MergeIterator(
      List<CloseableIterator<InternalRow>> runs,
      KeyValueLayout layout,
      Comparator<InternalRow> versionOrder,
      MergeFunction mergeFunction,
      boolean emitRetractions,
      boolean[] mergedRuns) {
    this.runs = runs;
    this.mergeFunction = mergeFunction;
    this.keyOrder = layout.keyComparator();
    this.kindIndex = layout.kindIndex();
    this.emitRetractions = emitRetractions;
    Comparator<Head> order =
        Comparator.<Head, InternalRow>comparing(h -> h.row, keyOrder)
            .thenComparing(h -> h.row, versionOrder);
    this.heap = new PriorityQueue<>(Math.max(1, runs.size()), order);
    try {
      for (int i = 0; i < runs.size(); i++) {
        Head head = new Head(runs.get(i), mergedRuns[i]);
        if (head.advance()) {
          heap.add(head);
        }
      }
    } catch (RuntimeException | Error e) {
      // the caller never gets this iterator to close: close every run (opened or not) here
      Closeables.closeAllAfter(e, runs);
      throw e;
    }
  }

  /** How many older versions the merge dropped so far. */
  public long mergedRows() {
    return mergedRows;
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    Head candidate = null;
    if (pending != null) {
      // the row handed out last time belongs to this run; only now may it move on
      candidate = advanceOrRequeue(pending);
      pending = null;
    }
    while (candidate != null || !heap.isEmpty()) {
      Head top = candidate != null ? candidate : heap.poll();
      candidate = null;
      mergeFunction.reset();
      mergeFunction.add(top.row);
      while (!heap.isEmpty() && keyOrder.compare(heap.peek().row, top.row) == 0) {
        // a newer version of the same key; the older row stays valid while the newer is added
        Head newer = heap.poll();
        if (newer.merged) {
          mergeFunction.reset(); // a whole merged value: the older versions are in it already
        }
        mergeFunction.add(newer.row);
        mergedRows++;
        if (top.advance()) {
          heap.add(top);
        }
        top = newer;
      }
      // the newest row may be part of the result: its run moves on only at the next call
      pending = top;
      InternalRow merged = mergeFunction.result();
      if (merged != null && (emitRetractions || RowKind.isAdd(merged.getByte(kindIndex)))) {
        next = merged;
        return true;
      }
      candidate = advanceOrRequeue(pending);
      pending = null;
    }
    return false;
  }

  /**
   * Moves {@code head}'s run on. Returns the head when its new key is smaller than every key in the
   * heap, so it is the next to merge without a round trip through the heap (the common case: long
   * stretches of keys found in one run only); otherwise puts it back into the heap and returns
   * null. Equal keys always go through the heap, which orders their versions.
   */
  private Head advanceOrRequeue(Head head) {
    if (!head.advance()) {
      return null;
    }
    if (heap.isEmpty() || keyOrder.compare(head.row, heap.peek().row) < 0) {
      return head;
    }
    heap.add(head);
    return null;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = next;
    next = null;
    return row;
  }

  @Override
  public void close() {
    Closeables.closeAll(runs);
  }

  /** The deduplicate merge function over full key-value rows. */
  static MergeFunction newestWins(KeyValueLayout layout) {
    return new MergeFunction() {
      private InternalRow newest;

      @Override
      public void reset() {
        newest = null;
      }

      @Override
      public void add(InternalRow keyValue) {
        newest = keyValue;
      }

      @Override
      public InternalRow result() {
        return newest;
      }
    };
  }

  /** A run and its current row. */
  private static final class Head {
    private final CloseableIterator<InternalRow> run;
    private final boolean merged;
    private InternalRow row;

    Head(CloseableIterator<InternalRow> run, boolean merged) {
      this.run = run;
      this.merged = merged;
    }

    boolean advance() {
      if (run.hasNext()) {
        row = run.next();
        return true;
      }
      return false;
    }
  }
}

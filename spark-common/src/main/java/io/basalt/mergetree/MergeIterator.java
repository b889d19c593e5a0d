package io.basalt.mergetree;

import io.basalt.data.RowKind;
import io.basalt.merge.MergeFunction;
import io.basalt.utils.CloseableIterator;
import io.basalt.utils.Closeables;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A streaming k-way merge of sorted runs: feeds the versions of each key, oldest first, to the
 * table's {@link MergeFunction} and yields its result; a key whose result is a retraction
 * disappears unless retractions are emitted (merges whose output has older data below). Each run
 * must be sorted by key with every key at most once (as level-0 files and levels are). Memory is
 * one current row per run.
 *
 * <p>The runs play in a {@link RunTournament} whose keys are held per run as primitives where the
 * key type allows ({@link RunKeys}); the versions of one key stay where their runs are until the
 * key's result has been handed out, so no row is copied and nothing is allocated per row.
 *
 * <p>The returned row may be a run's own (reused) row or the merge function's view; it is valid
 * until the next call.
 */
public final class MergeIterator implements CloseableIterator<InternalRow> {
  private final List<CloseableIterator<InternalRow>> runs;
  private final RunTournament tree;
  private final int kindIndex;
  private final boolean emitRetractions;
  private final MergeFunction mergeFunction;
  private final boolean[] mergedRuns;

  /** The runs whose rows the last key used; they move on only at the next call. */
  private final int[] taken;

  private int takenCount;
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
    this.kindIndex = layout.kindIndex();
    this.emitRetractions = emitRetractions;
    this.mergedRuns = mergedRuns.clone();
    this.taken = new int[runs.size()];
    this.tree =
        new RunTournament(runs.size(), RunKeys.of(layout.keyTypes(), runs.size()), versionOrder);
    try {
      for (int i = 0; i < runs.size(); i++) {
        CloseableIterator<InternalRow> run = runs.get(i);
        tree.initialize(i, run.hasNext() ? run.next() : null);
      }
      tree.build();
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
    while (true) {
      moveTakenRunsOn();
      int winner = tree.winner();
      if (!tree.hasRow(winner)) {
        return false;
      }
      mergeFunction.reset();
      mergeFunction.add(tree.row(winner));
      taken[takenCount++] = winner;
      while (tree.winnerKeyRepeats()) {
        // a newer version of the same key; the older rows stay valid, their runs wait
        tree.pop(winner);
        winner = tree.winner();
        if (mergedRuns[winner]) {
          mergeFunction.reset(); // a whole merged value: the older versions are in it already
        }
        mergeFunction.add(tree.row(winner));
        taken[takenCount++] = winner;
        mergedRows++;
      }
      InternalRow merged = mergeFunction.result();
      if (merged != null && (emitRetractions || RowKind.isAdd(merged.getByte(kindIndex)))) {
        next = merged;
        return true;
      }
    }
  }

  /** The rows of the last key have been consumed: their runs move on to their next rows. */
  private void moveTakenRunsOn() {
    for (int i = 0; i < takenCount; i++) {
      int run = taken[i];
      CloseableIterator<InternalRow> rows = runs.get(run);
      tree.replace(run, rows.hasNext() ? rows.next() : null);
    }
    takenCount = 0;
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
}

package io.basalt.mergetree;

import java.util.Arrays;
import java.util.Comparator;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A tournament (winner) tree over the current rows of k sorted runs: the root holds the run whose
 * row comes first, by key, then by version order (oldest first), then older run first (a higher run
 * index). Replacing one run's row replays only its path to the root, log2(k) comparisons, where a
 * binary heap needs up to twice that to poll and then sift the run back in.
 *
 * <p>Each node also records whether its two contestants have the same key, so whether another run
 * holds the winner's key is read off the winner's path without comparing again. A run can be
 * <em>popped</em>: its row was taken for the current key but stays valid (the run has not moved
 * on), and it loses to every live run until it is replaced.
 *
 * <p>Not thread-safe; holds references to the runs' rows, never copies them.
 */
final class RunTournament {
  private static final byte LIVE = 0;
  private static final byte POPPED = 1;
  private static final byte EXHAUSTED = 2;

  private final int size;

  /** For internal node n (1..size-1), the run that wins its subtree; leaf i sits at size + i. */
  private final int[] winners;

  /** For internal node n, whether both contestants are live and have the same key. */
  private final boolean[] sameKey;

  private final byte[] state;
  private final InternalRow[] rows;
  private final RunKeys keys;
  private final Comparator<InternalRow> versionOrder;

  /**
   * A tree of {@code size} runs, all exhausted until {@link #initialize} or {@link #replace} gives
   * them rows.
   */
  RunTournament(int size, RunKeys keys, Comparator<InternalRow> versionOrder) {
    this.size = size;
    this.winners = new int[Math.max(1, size)];
    this.sameKey = new boolean[Math.max(1, size)];
    this.state = new byte[size];
    this.rows = new InternalRow[size];
    this.keys = keys;
    this.versionOrder = versionOrder;
    Arrays.fill(state, EXHAUSTED);
  }

  /** Sets the first row of a run (null when the run is empty) without replaying. */
  void initialize(int run, InternalRow row) {
    set(run, row);
  }

  /** Plays every match once all runs are initialized. */
  void build() {
    for (int node = size - 1; node >= 1; node--) {
      play(node);
    }
  }

  /** The winning run; check {@link #hasRow} (false once every run is exhausted or popped). */
  int winner() {
    return size <= 1 ? 0 : winners[1];
  }

  boolean hasRow(int run) {
    return size > 0 && state[run] == LIVE;
  }

  InternalRow row(int run) {
    return rows[run];
  }

  /** Whether a live run other than the winner holds the winner's key. */
  boolean winnerKeyRepeats() {
    int winner = winner();
    for (int node = (winner + size) >>> 1; node > 0; node >>>= 1) {
      if (sameKey[node]) {
        return true;
      }
    }
    return false;
  }

  /** Moves {@code run} to its next row, or marks it exhausted when {@code row} is null. */
  void replace(int run, InternalRow row) {
    set(run, row);
    replay(run);
  }

  /** Takes {@code run}'s row out of the contest while the row stays valid. */
  void pop(int run) {
    state[run] = POPPED;
    replay(run);
  }

  private void set(int run, InternalRow row) {
    rows[run] = row;
    if (row == null) {
      state[run] = EXHAUSTED;
    } else {
      state[run] = LIVE;
      keys.load(run, row);
    }
  }

  private void replay(int run) {
    for (int node = (run + size) >>> 1; node > 0; node >>>= 1) {
      play(node);
    }
  }

  private int contestant(int position) {
    return position >= size ? position - size : winners[position];
  }

  private void play(int node) {
    int a = contestant(2 * node);
    int b = contestant(2 * node + 1);
    if (state[a] != LIVE || state[b] != LIVE) {
      sameKey[node] = false;
      winners[node] = state[a] <= state[b] ? a : b;
      return;
    }
    int c = keys.compare(a, b);
    if (c == 0) {
      sameKey[node] = true;
      c = versionOrder.compare(rows[a], rows[b]);
      if (c == 0) {
        // equal versions: the older run (higher index) first, so the newer run's row is added last
        c = Integer.compare(b, a);
      }
    } else {
      sameKey[node] = false;
    }
    winners[node] = c <= 0 ? a : b;
  }
}

package io.basalt.operation.stream;

/**
 * A place in a table's stream of changes: split {@code position} of the work of snapshot {@code
 * snapshotId}, which is the snapshot's rows when {@code full}, else its changes. Positions point at
 * the next split to read, so a position that no snapshot has yet reached waits for one.
 */
public record StreamPosition(long snapshotId, int position, boolean full) {
  /** The start of the changes of the snapshot after this position's one. */
  public StreamPosition nextSnapshot() {
    return new StreamPosition(snapshotId + 1, 0, false);
  }

  /** This snapshot's work, {@code count} splits further. */
  public StreamPosition advance(int count) {
    return new StreamPosition(snapshotId, position + count, full);
  }

  /** Whether this position comes before {@code other}. */
  public boolean before(StreamPosition other) {
    if (snapshotId != other.snapshotId) {
      return snapshotId < other.snapshotId;
    }
    if (full != other.full) {
      return full; // a snapshot's rows come before its changes
    }
    return position < other.position;
  }
}

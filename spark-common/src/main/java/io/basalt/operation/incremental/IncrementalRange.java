package io.basalt.operation.incremental;

import io.basalt.snapshot.Snapshot;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * A resolved incremental read: the changes after {@code startId} (exclusive) up to {@code end}
 * (inclusive), found by {@code mode}.
 *
 * @param startId the start snapshot's id; 0 stands for the empty table before snapshot 1
 * @param start the start snapshot as a diff reads it, or null when it is the empty table (or the
 *     mode is delta or changelog, which need only the snapshots after it)
 * @param end the end snapshot, or null when the range holds no snapshot (an empty result)
 */
public record IncrementalRange(
    Mode mode, long startId, @Nullable Snapshot start, @Nullable Snapshot end)
    implements Serializable {

  /** How the changes are found. */
  public enum Mode {
    /** Merge per key the data files that the APPEND snapshots of the range added. */
    DELTA,
    /** Compare the merged data of the two ends per key. */
    DIFF,
    /** Read, in commit order, the changelog files the snapshots of the range wrote. */
    CHANGELOG
  }

  /** A range holding no snapshot: the read returns no rows. */
  static IncrementalRange empty(Mode mode) {
    return new IncrementalRange(mode, 0, null, null);
  }

  public boolean isEmpty() {
    return end == null || end.id() == startId;
  }
}

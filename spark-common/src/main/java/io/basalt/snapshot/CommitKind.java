package io.basalt.snapshot;

/** What kind of change a snapshot records. */
public enum CommitKind {
  /** New files from writers. */
  APPEND,
  /** Compaction rewrites. */
  COMPACT,
  /** Files of overwritten partitions deleted, new files added. */
  OVERWRITE,
  /** Statistics only. */
  ANALYZE
}

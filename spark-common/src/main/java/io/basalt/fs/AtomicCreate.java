package io.basalt.fs;

/**
 * How a file system makes {@link FileIO#tryCreateAtomically} atomic: the primitive that decides
 * which of several racing writers creates a file (a snapshot, a schema, a tag). A store with none
 * of them needs a commit lock or single-writer mode (see {@code io.basalt.fs.lock}).
 */
public enum AtomicCreate {
  /** The implementation itself guarantees it (in-memory test file systems). */
  NATIVE("atomic by implementation"),
  /** A hard link from a finished temporary file; fails when the target exists (local disk). */
  LINK("hard link of a finished temporary file"),
  /** A rename of a finished temporary file, which fails when the target exists (HDFS). */
  RENAME("rename of a finished temporary file that fails when the target exists"),
  /** A PUT with {@code If-None-Match: *}, which the store rejects when the key exists (S3A). */
  CONDITIONAL_PUT("conditional PUT (If-None-Match: *)"),
  /** Nothing: an existence check followed by a write, which two writers can both pass. */
  NONE("none");

  private final String description;

  AtomicCreate(String description) {
    this.description = description;
  }

  /** Whether two racing creators of one path cannot both win. */
  public boolean isAtomic() {
    return this != NONE;
  }

  /** A short description for messages and docs. */
  public String description() {
    return description;
  }
}

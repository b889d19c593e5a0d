package io.basalt.options;

/**
 * Options that make commits safe on a store without an atomic create-if-absent (see {@code
 * io.basalt.fs.AtomicCreate}): a commit lock, or the user's promise that only one writer commits.
 * On local disks, HDFS and S3A with conditional writes neither is needed.
 */
public final class LockOptions {
  private LockOptions() {}

  /** The lock types Basalt knows, for {@link #LOCK_TYPE}. */
  public static final String LOCK_TYPE_FILE = "file";

  public static final ConfigOption<Boolean> LOCK_ENABLED =
      ConfigOption.key("lock.enabled")
          .booleanType()
          .defaultValue(false)
          .description(
              "Serialise this table's commits through a commit lock of 'lock.type'. Needed on"
                  + " a store without an atomic create-if-absent (for example gs:, abfs:, oss:,"
                  + " or s3a: without conditional writes) when more than one writer commits.");

  public static final ConfigOption<String> LOCK_TYPE =
      ConfigOption.key("lock.type")
          .enumType(LOCK_TYPE_FILE)
          .defaultValue(LOCK_TYPE_FILE)
          .description(
              "The commit lock: 'file' holds a lock file in 'lock.file.dir', which must be on a"
                  + " file system with an atomic create (a local or NFS path every writer"
                  + " shares, hdfs:, or s3a: with conditional writes).");

  public static final ConfigOption<String> LOCK_FILE_DIR =
      ConfigOption.key("lock.file.dir")
          .stringType()
          .description(
              "Directory of the 'file' commit lock's lock files (one per table), on a file"
                  + " system with an atomic create that every writer reaches.");

  public static final ConfigOption<Long> LOCK_ACQUIRE_TIMEOUT =
      ConfigOption.key("lock-acquire-timeout")
          .durationType()
          .atLeast(0)
          .defaultValue(480_000L)
          .description("The longest a commit waits for the commit lock before it fails.");

  public static final ConfigOption<Long> LOCK_CHECK_MAX_SLEEP =
      ConfigOption.key("lock-check-max-sleep")
          .durationType()
          .atLeast(1)
          .defaultValue(8_000L)
          .description("The longest pause between two attempts to take the commit lock.");

  public static final ConfigOption<Long> LOCK_FILE_STALE_AFTER =
      ConfigOption.key("lock.file.stale-after")
          .durationType()
          .atLeast(1)
          .defaultValue(300_000L)
          .description(
              "A lock file older than this is taken to belong to a writer that died while"
                  + " holding it, and is removed. It must exceed the longest pause (GC, network)"
                  + " of a lock holder, which holds the lock only while it creates one file.");

  public static final ConfigOption<Boolean> COMMIT_SINGLE_WRITER =
      ConfigOption.key("commit.single-writer")
          .booleanType()
          .defaultValue(false)
          .description(
              "Promise that only one writer at a time commits to this table, so commits may"
                  + " publish snapshots with a plain existence check on a store without an"
                  + " atomic create-if-absent. Two concurrent writers can then overwrite each"
                  + " other's snapshot and lose data.");
}

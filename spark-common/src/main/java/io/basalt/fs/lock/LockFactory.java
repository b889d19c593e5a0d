package io.basalt.fs.lock;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.options.LockOptions;
import io.basalt.options.Options;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/** Builds the commit lock a table's options ask for ({@code lock.enabled}, {@code lock.type}). */
public final class LockFactory {
  private LockFactory() {}

  /**
   * The lock of the table at {@code tableRoot}, or empty when {@code lock.enabled} is off.
   *
   * @throws BasaltException naming the option and the fix when the lock is misconfigured
   */
  public static Optional<CommitLock> create(
      Options options, FileIO fileIO, Path tableRoot, String tableName) {
    if (!options.get(LockOptions.LOCK_ENABLED)) {
      return Optional.empty();
    }
    String type = options.get(LockOptions.LOCK_TYPE);
    if (!LockOptions.LOCK_TYPE_FILE.equals(type)) {
      // enumType already refuses other values; this guards a new type added there but not here
      throw new BasaltException(
          String.format(
              "Unknown commit lock type '%s' in '%s' of table %s. Fix: use one of: %s.",
              type, LockOptions.LOCK_TYPE.key(), tableName, LockOptions.LOCK_TYPE_FILE));
    }
    Optional<String> dir = options.getOptional(LockOptions.LOCK_FILE_DIR);
    if (dir.isEmpty() || dir.get().isBlank()) {
      throw new BasaltException(
          String.format(
              "Table %s sets '%s'='true' with '%s'='file' but no '%s'. Fix: set '%s' to a"
                  + " directory every writer reaches on a file system with an atomic create"
                  + " (hdfs:, a shared local or NFS path, or s3a: with conditional writes).",
              tableName,
              LockOptions.LOCK_ENABLED.key(),
              LockOptions.LOCK_TYPE.key(),
              LockOptions.LOCK_FILE_DIR.key(),
              LockOptions.LOCK_FILE_DIR.key()));
    }
    return Optional.of(
        new FileCommitLock(
            fileIO,
            FileCommitLock.lockFile(new Path(dir.get()), tableRoot, tableName),
            tableName,
            options.get(LockOptions.LOCK_ACQUIRE_TIMEOUT),
            options.get(LockOptions.LOCK_CHECK_MAX_SLEEP),
            options.get(LockOptions.LOCK_FILE_STALE_AFTER)));
  }
}

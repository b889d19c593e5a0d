package io.basalt.fs.lock;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.options.LockOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code file} commit lock: whoever creates the table's lock file (atomically, on a file system
 * that can) holds the lock, and deletes the file to release it. The file names its holder and the
 * time it was taken, so a lock left by a writer that died is removed once it is older than {@code
 * lock.file.stale-after}.
 *
 * <p>Removing a stale lock is itself guarded: the remover first creates a marker named after the
 * stale content (only one remover wins it), then deletes the lock only if it still holds that
 * content. So a lock taken meanwhile by a live writer is never removed.
 */
final class FileCommitLock implements CommitLock {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FileCommitLock.class);
  private static final long FIRST_SLEEP_MS = 10;

  private final FileIO fileIO;
  private final Path lockFile;
  private final String tableName;
  private final long acquireTimeoutMs;
  private final long maxSleepMs;
  private final long staleAfterMs;

  FileCommitLock(
      FileIO fileIO,
      Path lockFile,
      String tableName,
      long acquireTimeoutMs,
      long maxSleepMs,
      long staleAfterMs) {
    this.fileIO = fileIO;
    this.lockFile = lockFile;
    this.tableName = tableName;
    this.acquireTimeoutMs = acquireTimeoutMs;
    this.maxSleepMs = maxSleepMs;
    this.staleAfterMs = staleAfterMs;
  }

  /**
   * The lock file of the table at {@code tableRoot} in {@code dir}: the table's name for people and
   * a hash of its location, so two tables of one name in different warehouses do not share it.
   */
  static Path lockFile(Path dir, Path tableRoot, String tableName) {
    String readable = tableName.replaceAll("[^A-Za-z0-9._-]", "_");
    return new Path(dir, readable + "-" + hash(tableRoot.toString()).substring(0, 16) + ".lock");
  }

  Path lockFile() {
    return lockFile;
  }

  @Override
  public <T> T runWithLock(Action<T> action) throws IOException {
    String token = acquire();
    try {
      return action.run();
    } finally {
      release(token);
    }
  }

  private String acquire() throws IOException {
    if (!fileIO.atomicCreate(lockFile.getParent()).isAtomic()) {
      throw new BasaltException(
          String.format(
              "The commit lock of table %s cannot work in '%s'='%s': that file system has no"
                  + " atomic create either. Fix: point '%s' at hdfs:, a local or NFS path every"
                  + " writer shares, or s3a: with conditional writes.",
              tableName,
              LockOptions.LOCK_FILE_DIR.key(),
              lockFile.getParent(),
              LockOptions.LOCK_FILE_DIR.key()));
    }
    long deadline = System.currentTimeMillis() + acquireTimeoutMs;
    long sleep = FIRST_SLEEP_MS;
    while (true) {
      long now = System.currentTimeMillis();
      String token = UUID.randomUUID() + "\n" + now + "\n";
      if (fileIO.tryCreateAtomically(lockFile, token)) {
        return token;
      }
      removeIfStale(now);
      if (now >= deadline) {
        throw new BasaltException(
            String.format(
                "Timed out after %s ms waiting for the commit lock %s of table %s. Another writer"
                    + " holds it. Fix: retry later or raise '%s'; if no writer is running, the"
                    + " lock is left from one that died: it is removed after '%s' (%s ms), or"
                    + " delete the file.",
                acquireTimeoutMs,
                lockFile,
                tableName,
                LockOptions.LOCK_ACQUIRE_TIMEOUT.key(),
                LockOptions.LOCK_FILE_STALE_AFTER.key(),
                staleAfterMs));
      }
      pause(Math.min(sleep, Math.max(1, deadline - now)));
      sleep = Math.min(maxSleepMs, sleep * 2);
    }
  }

  /** Removes the lock file if its holder took it longer than {@code stale-after} ago. */
  private void removeIfStale(long now) throws IOException {
    String held = readOrNull(lockFile);
    if (held == null || now - takenAt(held) <= staleAfterMs) {
      return;
    }
    Path marker = new Path(lockFile.getParent(), lockFile.getName() + ".remove-" + hash(held));
    if (!fileIO.tryCreateAtomically(marker, "")) {
      return; // another writer is removing this stale lock
    }
    try {
      if (held.equals(readOrNull(lockFile))) {
        LOG.warn(
            "Removing commit lock {} of table {}: taken {} ms ago, longer than '{}'",
            lockFile,
            tableName,
            now - takenAt(held),
            LockOptions.LOCK_FILE_STALE_AFTER.key());
        fileIO.delete(lockFile, false);
      }
    } finally {
      fileIO.delete(marker, false);
    }
  }

  private void release(String token) throws IOException {
    if (token.equals(readOrNull(lockFile))) {
      fileIO.delete(lockFile, false);
    } else {
      LOG.warn(
          "Commit lock {} of table {} was removed as stale while this writer held it; raise '{}'",
          lockFile,
          tableName,
          LockOptions.LOCK_FILE_STALE_AFTER.key());
    }
  }

  private String readOrNull(Path path) throws IOException {
    try {
      return fileIO.readUtf8(path);
    } catch (FileNotFoundException e) {
      return null; // released meanwhile
    }
  }

  /** The time in a lock file's second line; a file that is not ours to parse counts as new. */
  private static long takenAt(String content) {
    String[] lines = content.split("\n");
    try {
      return lines.length >= 2 ? Long.parseLong(lines[1].trim()) : Long.MAX_VALUE;
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE; // unknown format: never treat it as stale
    }
  }

  private void pause(long ms) {
    try {
      Thread.sleep(ms / 2 + ThreadLocalRandom.current().nextLong(ms / 2 + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BasaltException(
          "Interrupted while waiting for the commit lock " + lockFile + " of table " + tableName);
    }
  }

  private static String hash(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}

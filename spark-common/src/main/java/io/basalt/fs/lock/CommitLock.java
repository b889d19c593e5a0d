package io.basalt.fs.lock;

import java.io.IOException;
import java.io.Serializable;

/**
 * A lock that serialises the commits of one table across processes, for stores whose files cannot
 * be created atomically-if-absent. A commit holds it only while it checks that its snapshot id is
 * free and writes the snapshot file, so its critical section is one small file.
 *
 * <p>Implementations are serializable (tables travel to executors) and thread-safe; {@link
 * LockFactory} builds the one {@code lock.type} names.
 */
public interface CommitLock extends Serializable {

  /** An action that may fail with an I/O error. */
  @FunctionalInterface
  interface Action<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code action} while holding the lock and releases it afterwards, also when the action
   * throws.
   *
   * @throws io.basalt.BasaltException when the lock cannot be taken within {@code
   *     lock-acquire-timeout}
   * @throws IOException when the action or the lock's own files fail
   */
  <T> T runWithLock(Action<T> action) throws IOException;
}

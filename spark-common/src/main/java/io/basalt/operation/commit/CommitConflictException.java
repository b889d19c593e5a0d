package io.basalt.operation.commit;

import io.basalt.BasaltException;

/**
 * A commit lost to concurrent commits more often than allowed, or conflicts with one. Nothing of it
 * was published; its new files may be deleted.
 */
public final class CommitConflictException extends BasaltException {
  public CommitConflictException(String message) {
    super(message);
  }
}

package io.basalt.operation.commit;

import io.basalt.BasaltException;

/**
 * Publishing the snapshot failed in a way that leaves open whether it happened. Nothing may be
 * deleted: the snapshot may reference the new files.
 */
public final class CommitStateUnknownException extends BasaltException {
  public CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}

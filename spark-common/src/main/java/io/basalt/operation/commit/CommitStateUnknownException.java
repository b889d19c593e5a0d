package io.basalt.operation.commit;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import java.util.Map;

/**
 * Publishing the snapshot failed in a way that leaves open whether it happened. Nothing may be
 * deleted: the snapshot may reference the new files.
 */
public final class CommitStateUnknownException extends BasaltException {
  public CommitStateUnknownException(String message, Throwable cause) {
    super(BasaltErrorClass.BASALT_COMMIT_STATE_UNKNOWN, Map.of(), message, cause);
  }
}

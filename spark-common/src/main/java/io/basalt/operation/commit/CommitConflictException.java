package io.basalt.operation.commit;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import java.util.Map;

/**
 * A commit lost to concurrent commits more often than allowed, or conflicts with one. Nothing of it
 * was published; its new files may be deleted.
 */
public final class CommitConflictException extends BasaltException {
  public CommitConflictException(String message) {
    super(BasaltErrorClass.BASALT_COMMIT_CONFLICT, Map.of(), message);
  }
}

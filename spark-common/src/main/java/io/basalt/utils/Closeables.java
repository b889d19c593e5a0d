package io.basalt.utils;

import java.io.Closeable;
import java.io.IOException;

/** Closing several resources after a failure without losing either the failure or a resource. */
public final class Closeables {
  private Closeables() {}

  /**
   * Closes every one of {@code resources} (nulls skipped), even when some fail to close; their
   * failures are added to {@code failure} as suppressed exceptions, so the original cause stays the
   * one reported.
   */
  public static void closeAllAfter(Throwable failure, Iterable<? extends Closeable> resources) {
    for (Closeable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /**
   * Closes every one of {@code resources} (nulls skipped); throws the first failure with the later
   * ones suppressed, after all were attempted.
   */
  public static void closeAll(Iterable<? extends CloseableIterator<?>> resources) {
    RuntimeException failure = null;
    for (CloseableIterator<?> resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}

package io.basalt.fs;

/** Opens the package-private classification of store errors to the store tests. */
public final class StorePrimitivesAccess {
  private StorePrimitivesAccess() {}

  /** Whether {@code e} is the store's 412 answer to a conditional PUT. */
  public static boolean preconditionFailed(Throwable e) {
    return StorePrimitives.preconditionFailed(e);
  }
}

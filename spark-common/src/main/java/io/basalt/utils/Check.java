package io.basalt.utils;

/**
 * Precondition checks with {@code %s} message templates, so callers never build a message eagerly.
 */
public final class Check {
  private Check() {}

  /** Throws {@link IllegalArgumentException} when {@code condition} is false. */
  public static void argument(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new IllegalArgumentException(String.format(template, args));
    }
  }

  /** Throws {@link IllegalStateException} when {@code condition} is false. */
  public static void state(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new IllegalStateException(String.format(template, args));
    }
  }

  /** Returns {@code value}, or throws {@link NullPointerException} naming what was null. */
  public static <T> T notNull(T value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    return value;
  }
}

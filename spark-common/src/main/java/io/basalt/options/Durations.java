package io.basalt.options;

/** Parses durations the way duration options do, for callers outside option parsing. */
public final class Durations {
  private Durations() {}

  /**
   * Parses durations like {@code 1 h}, {@code 30 min}, {@code 10 s}, {@code 1 d} or plain
   * milliseconds.
   *
   * @throws IllegalArgumentException saying what was expected when {@code value} is not one
   */
  public static long parseMillis(String value) {
    return OptionParsers.parseDurationMillis(value.trim());
  }
}

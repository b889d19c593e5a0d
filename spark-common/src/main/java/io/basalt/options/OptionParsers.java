package io.basalt.options;

import java.util.Locale;

/** Parsers for option values; each throws IllegalArgumentException saying what was expected. */
final class OptionParsers {
  private OptionParsers() {}

  static int parseInt(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer", e);
    }
  }

  static long parseLong(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a long integer", e);
    }
  }

  static boolean parseBoolean(String value) {
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("expected true or false");
  }

  static String parseEnum(String value, String[] allowed) {
    for (String candidate : allowed) {
      if (candidate.equalsIgnoreCase(value)) {
        return candidate;
      }
    }
    String hint =
        NearMiss.closest(value, java.util.List.of(allowed))
            .map(close -> " (did you mean '" + close + "'?)")
            .orElse("");
    throw new IllegalArgumentException("expected one of " + String.join(", ", allowed) + hint);
  }

  /** Parses sizes like {@code 256 mb}, {@code 64kb}, {@code 1g} or plain bytes. */
  static long parseMemory(String value) {
    String text = value.toLowerCase(Locale.ROOT).replace(" ", "");
    int split = 0;
    while (split < text.length() && Character.isDigit(text.charAt(split))) {
      split++;
    }
    if (split == 0) {
      throw new IllegalArgumentException("expected a size such as '256 mb'");
    }
    long number = Long.parseLong(text.substring(0, split));
    long unit =
        switch (text.substring(split)) {
          case "", "b", "bytes" -> 1L;
          case "k", "kb", "kib" -> 1L << 10;
          case "m", "mb", "mib" -> 1L << 20;
          case "g", "gb", "gib" -> 1L << 30;
          case "t", "tb", "tib" -> 1L << 40;
          default -> throw new IllegalArgumentException("expected a size such as '256 mb'");
        };
    return Math.multiplyExact(number, unit);
  }

  /** Parses durations like {@code 1 h}, {@code 30min}, {@code 10 s}, {@code 1 d} or millis. */
  static long parseDurationMillis(String value) {
    String text = value.toLowerCase(Locale.ROOT).replace(" ", "");
    int split = 0;
    while (split < text.length() && Character.isDigit(text.charAt(split))) {
      split++;
    }
    if (split == 0) {
      throw new IllegalArgumentException("expected a duration such as '1 h' or '30 min'");
    }
    long number = Long.parseLong(text.substring(0, split));
    long unit =
        switch (text.substring(split)) {
          case "", "ms", "milli", "millis", "millisecond", "milliseconds" -> 1L;
          case "s", "sec", "secs", "second", "seconds" -> 1000L;
          case "m", "min", "mins", "minute", "minutes" -> 60_000L;
          case "h", "hour", "hours" -> 3_600_000L;
          case "d", "day", "days" -> 86_400_000L;
          default ->
              throw new IllegalArgumentException("expected a duration such as '1 h' or '30 min'");
        };
    return Math.multiplyExact(number, unit);
  }
}

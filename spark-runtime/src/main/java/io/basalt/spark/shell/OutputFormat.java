package io.basalt.spark.shell;

import java.util.Locale;

/** How the shell prints a statement's result rows. */
public enum OutputFormat {
  /** An aligned ASCII table with a header and a row-count footer, for people. */
  TABLE,
  /** A header line, then one tab-separated line per row and no footer, for scripts. */
  TSV;

  /**
   * Parses an {@code --output} value ({@code table} or {@code tsv}, any case).
   *
   * @throws IllegalArgumentException if the value names no format
   */
  public static OutputFormat parse(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "table" -> TABLE;
      case "tsv" -> TSV;
      default ->
          throw new IllegalArgumentException(
              "Invalid value '" + value + "' for --output: expected 'table' or 'tsv'");
    };
  }
}

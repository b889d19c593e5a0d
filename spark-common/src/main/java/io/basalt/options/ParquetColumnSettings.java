package io.basalt.options;

import java.util.Collection;
import java.util.Map;
import java.util.function.Function;

/**
 * Checks Parquet's per-column table options, {@code <setting>#<column>} (for example {@code
 * parquet.enable.dictionary#status}), when a CREATE or ALTER TABLE sets them: the setting must be
 * one Parquet has per column, the column one of the table's (or a column Basalt adds to its data
 * files, such as {@code _KEY_id} or {@code _SEQUENCE_NUMBER}), and the value must parse.
 */
final class ParquetColumnSettings {
  private static final Map<String, Function<String, ?>> SETTINGS =
      Map.of(
          "parquet.enable.dictionary", OptionParsers::parseBoolean,
          "parquet.bloom.filter.enabled", OptionParsers::parseBoolean,
          "parquet.bloom.filter.expected.ndv", ParquetColumnSettings::positiveLong);

  private static final String KEY_PREFIX = "_KEY_";

  private ParquetColumnSettings() {}

  /** Whether {@code key} has the per-column form of a Parquet option. */
  static boolean isColumnSetting(String key) {
    return key.startsWith(ParquetOptions.PREFIX) && key.indexOf('#') > 0;
  }

  /**
   * @throws io.basalt.BasaltException naming the key, the value, the table and the fix
   */
  static void check(String key, String value, Collection<String> columns, String owner) {
    int hash = key.indexOf('#');
    String setting = key.substring(0, hash);
    String column = key.substring(hash + 1);
    Function<String, ?> parser = SETTINGS.get(setting);
    if (parser == null) {
      throw OptionErrors.invalidOption(
          key,
          value,
          owner,
          String.format(
              "Unknown per-column Parquet option '%s' on %s: Parquet sets only %s per column."
                  + " Fix: use one of them as '<option>#<column>'.",
              key, owner, String.join(", ", SETTINGS.keySet().stream().sorted().toList())),
          null);
    }
    String base = column.startsWith(KEY_PREFIX) ? column.substring(KEY_PREFIX.length()) : column;
    if (!columns.contains(base)
        && !column.equals("_SEQUENCE_NUMBER")
        && !column.equals("_VALUE_KIND")) {
      throw OptionErrors.invalidOption(
          key,
          value,
          owner,
          String.format(
              "Option '%s' on %s names column '%s', which the table does not have. Fix: name one"
                  + " of its columns: %s.",
              key, owner, column, String.join(", ", columns)),
          null);
    }
    try {
      parser.apply(value.trim());
    } catch (IllegalArgumentException e) {
      throw OptionErrors.invalidOption(
          key,
          value,
          owner,
          String.format(
              "Invalid value '%s' for option '%s' on %s: %s. Fix: set a valid value or remove"
                  + " the option.",
              value, key, owner, e.getMessage()),
          e);
    }
  }

  private static long positiveLong(String value) {
    long parsed = OptionParsers.parseLong(value);
    if (parsed < 1) {
      throw new IllegalArgumentException("expected a positive integer");
    }
    return parsed;
  }
}

package io.basalt.merge;

import io.basalt.options.Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The per-column merge options {@code fields.<column>.<setting>} of a table. */
final class FieldOptions {
  static final String PREFIX = "fields.";
  static final String AGGREGATE_FUNCTION = "aggregate-function";
  static final String IGNORE_RETRACT = "ignore-retract";
  static final String NESTED_KEY = "nested-key";

  /** Per-column settings whose column must exist. */
  static final List<String> COLUMN_SETTINGS =
      List.of(AGGREGATE_FUNCTION, IGNORE_RETRACT, NESTED_KEY, "list-agg-delimiter", "distinct");

  private FieldOptions() {}

  static String key(String column, String setting) {
    return PREFIX + column + "." + setting;
  }

  static Optional<String> get(Options options, String column, String setting) {
    return options.raw(key(column, setting)).map(String::trim);
  }

  /** The columns that have option {@code fields.<column>.<setting>}, in key order. */
  static List<String> columnsWith(Options options, String setting) {
    List<String> columns = new ArrayList<>();
    String suffix = "." + setting;
    for (String key : new java.util.TreeSet<>(options.toMap().keySet())) {
      if (key.startsWith(PREFIX)
          && key.endsWith(suffix)
          && key.length() > PREFIX.length() + suffix.length()) {
        columns.add(key.substring(PREFIX.length(), key.length() - suffix.length()));
      }
    }
    return columns;
  }

  /** Splits a comma-separated list of column names, dropping blanks. */
  static List<String> names(String list) {
    List<String> names = new ArrayList<>();
    for (String raw : list.split(",")) {
      if (!raw.trim().isEmpty()) {
        names.add(raw.trim());
      }
    }
    return names;
  }
}

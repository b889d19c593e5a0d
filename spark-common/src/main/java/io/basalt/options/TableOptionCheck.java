package io.basalt.options;

import io.basalt.BasaltException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the table options a CREATE TABLE or ALTER TABLE SET gives, before anything is written, so
 * no value stored can break later writes:
 *
 * <ul>
 *   <li>a Basalt option's value must parse and be in range;
 *   <li>{@code fields.<column>.<setting>} must name existing columns and a setting Basalt or Paimon
 *       knows;
 *   <li>a Paimon option Basalt does not implement is kept, as Paimon keeps options its engine does
 *       not read ({@code lookup.*}, {@code sink.*}); its value is checked when the list gives the
 *       allowed values;
 *   <li>any other key is kept as the user's metadata, unless it is a near miss of a known key
 *       ({@code merge_engine}, {@code deletion-vector.enabled}), which is refused naming that key.
 * </ul>
 *
 * Only the keys being set are checked: an existing table always loads whatever it stores.
 */
public final class TableOptionCheck {
  private static final String FIELDS = "fields.";

  private static final Map<String, ConfigOption<?>> BASALT = new HashMap<>();

  /** Basalt's keys and Paimon's, the candidates of a near miss. */
  private static final Set<String> KNOWN = new LinkedHashSet<>();

  static {
    for (ConfigOption<?> option : OptionRegistry.all()) {
      BASALT.put(option.key(), option);
    }
    KNOWN.addAll(BASALT.keySet());
    KNOWN.addAll(PaimonOptionKeys.keys());
  }

  private TableOptionCheck() {}

  /**
   * @param set the options being set, by key
   * @param columns the table's top-level columns (after the statement's column changes)
   * @param table the table's name, for messages
   * @throws BasaltException ({@code BASALT_INVALID_OPTION}) naming the first bad key, its value and
   *     the fix
   */
  public static void check(Map<String, String> set, Collection<String> columns, String table) {
    for (Map.Entry<String, String> e : new TreeMap<>(set).entrySet()) {
      checkOne(e.getKey(), e.getValue(), columns, table);
    }
  }

  private static void checkOne(String key, String value, Collection<String> columns, String table) {
    String owner = "table " + table;
    ConfigOption<?> option = BASALT.get(key);
    if (option != null) {
      new Options(Map.of(key, value), owner).get(option);
      return;
    }
    if (key.startsWith(FIELDS)) {
      checkField(key, value, columns, owner);
      return;
    }
    if (PaimonOptionKeys.contains(key)) {
      checkAllowedValue(key, value, owner);
      return;
    }
    if (ParquetColumnSettings.isColumnSetting(key)) {
      ParquetColumnSettings.check(key, value, columns, owner);
      return;
    }
    Optional<String> meant = NearMiss.closest(key, KNOWN);
    if (meant.isPresent()) {
      throw OptionErrors.invalidOption(
          key,
          value,
          owner,
          String.format(
              "Unknown option '%s' on %s: did you mean '%s'? Options that are neither Basalt's nor"
                  + " Paimon's are kept as the table's own properties, but this one is so close to"
                  + " '%s' that it is most likely a typo. Fix: write '%s' = '%s'.",
              key, owner, meant.get(), meant.get(), meant.get(), value),
          null);
    }
  }

  private static void checkAllowedValue(String key, String value, String owner) {
    List<String> allowed = PaimonOptionKeys.allowedValues(key);
    if (allowed.isEmpty() || allowed.contains(value.trim().toLowerCase(Locale.ROOT))) {
      return;
    }
    String hint =
        NearMiss.closest(value.trim(), allowed)
            .map(close -> " Did you mean '" + close + "'?")
            .orElse("");
    throw OptionErrors.invalidOption(
        key,
        value,
        owner,
        String.format(
            "Invalid value '%s' for option '%s' on %s: expected one of %s.%s Fix: set '%s' to one"
                + " of them.",
            value, key, owner, String.join(", ", allowed), hint, key),
        null);
  }

  /**
   * {@code fields.<columns>.<setting>}: the setting is known, and each of the comma-separated
   * columns exists ({@code fields.a,b.sequence-group} names two sequence columns).
   */
  private static void checkField(
      String key, String value, Collection<String> columns, String owner) {
    String rest = key.substring(FIELDS.length());
    String setting = null;
    for (String candidate : knownSettings()) {
      if (rest.endsWith("." + candidate) && rest.length() > candidate.length() + 1) {
        setting = candidate;
        break;
      }
    }
    if (setting == null && (rest.endsWith(".index.type") || rest.endsWith(".index.options"))) {
      return; // Paimon's per-column index settings: fields.<c>.<family>.index.*, kept as Paimon
    }
    if (setting == null) {
      throw unknownSetting(key, value, rest, columns, owner);
    }
    String names = rest.substring(0, rest.length() - setting.length() - 1);
    for (String raw : names.split(",")) {
      String column = raw.trim();
      if (!columns.contains(column)) {
        String hint =
            NearMiss.closest(column, columns)
                .map(close -> " Did you mean '" + close + "'?")
                .orElse("");
        throw OptionErrors.invalidOption(
            key,
            value,
            owner,
            String.format(
                "Option '%s' on %s names column '%s', which does not exist; the columns are %s.%s"
                    + " Fix: write 'fields.<column>.%s' with an existing column.",
                key, owner, column, String.join(", ", columns), hint, setting),
            null);
      }
    }
  }

  private static BasaltException unknownSetting(
      String key, String value, String rest, Collection<String> columns, String owner) {
    String setting = rest;
    for (String column : columns) {
      if (rest.startsWith(column + ".")) {
        setting = rest.substring(column.length() + 1);
        break;
      }
    }
    String hint =
        NearMiss.closest(setting, knownSettings())
            .map(close -> " Did you mean '" + close + "'?")
            .orElse("");
    return OptionErrors.invalidOption(
        key,
        value,
        owner,
        String.format(
            "Option '%s' on %s is not a per-column setting Basalt or Paimon knows: 'fields.<column>."
                + "<setting>' takes the settings %s.%s Fix: write 'fields.<column>.<setting>'"
                + " with one of them.",
            key, owner, String.join(", ", knownSettings()), hint),
        null);
  }

  /** Paimon's per-column settings, longest first so that a dotted setting wins over its tail. */
  private static List<String> knownSettings() {
    List<String> settings = new ArrayList<>(PaimonOptionKeys.FIELD_SETTINGS);
    settings.sort((a, b) -> Integer.compare(b.length(), a.length()));
    return settings;
  }
}

package io.basalt.options;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every option key Apache Paimon defines, with where Paimon defines it: the one list Basalt checks
 * table options, near-miss keys and the compatibility docs against. The list is the resource {@code
 * paimon-option-keys.txt} beside this class, one key a line; Basalt's own options are declared in
 * {@link OptionRegistry}.
 */
public final class PaimonOptionKeys {
  /** Where Paimon defines a key. */
  public enum Scope {
    /** {@code CoreOptions}: table options every engine reads. */
    CORE,
    /** {@code FlinkConnectorOptions}: options only Paimon's Flink connector reads. */
    FLINK,
    /** {@code SparkConnectorOptions}: options of Paimon's Spark connector. */
    SPARK,
    /** An older spelling of a key that Paimon still reads. */
    FALLBACK
  }

  /**
   * The per-column settings Paimon reads as {@code fields.<column>.<setting>} (merge engines,
   * statistics, MAP layouts). Index settings ({@code fields.<column>.<family>.index.type} and
   * {@code .index.options}) are accepted by {@link #isFieldSetting}.
   */
  public static final List<String> FIELD_SETTINGS =
      List.of(
          "aggregate-function",
          "ignore-retract",
          "nested-key",
          "nested-key-null-strategy",
          "nested-sequence-field",
          "count-limit",
          "distinct",
          "list-agg-delimiter",
          "sequence-group",
          "ts-field",
          "stats-mode",
          "map.storage-layout",
          "map.shared-shredding.max-columns",
          "map.shared-shredding.column-placement-policy");

  private static final String RESOURCE = "paimon-option-keys.txt";

  private static final Map<String, Entry> KEYS = load();

  private record Entry(Scope scope, List<String> allowedValues) {}

  private PaimonOptionKeys() {}

  /** Every key, in the order of the list (by scope, then by key). */
  public static Set<String> keys() {
    return KEYS.keySet();
  }

  /** Where Paimon defines {@code key}; empty when Paimon does not know it. */
  public static Optional<Scope> scope(String key) {
    Entry entry = KEYS.get(key);
    return entry == null ? Optional.empty() : Optional.of(entry.scope());
  }

  /** Whether Paimon defines {@code key}, directly or as one of its patterns. */
  public static boolean contains(String key) {
    return KEYS.containsKey(key) || matchesPattern(key);
  }

  /**
   * The values Paimon allows for {@code key}, for the enum options Basalt does not declare itself;
   * empty when the list gives none.
   */
  public static List<String> allowedValues(String key) {
    Entry entry = KEYS.get(key);
    return entry == null ? List.of() : entry.allowedValues();
  }

  /** Whether {@code setting} may follow {@code fields.<column>.} in Paimon. */
  public static boolean isFieldSetting(String setting) {
    return FIELD_SETTINGS.contains(setting)
        || setting.endsWith(".index.type")
        || setting.endsWith(".index.options");
  }

  /** {@code commit.callback.#.param}: '#' stands for any text without a dot. */
  private static boolean matchesPattern(String key) {
    for (String pattern : KEYS.keySet()) {
      int hash = pattern.indexOf('#');
      if (hash >= 0
          && key.startsWith(pattern.substring(0, hash))
          && key.endsWith(pattern.substring(hash + 1))
          && key.length() > pattern.length() - 1) {
        String middle = key.substring(hash, key.length() - (pattern.length() - hash - 1));
        if (!middle.contains(".")) {
          return true;
        }
      }
    }
    return false;
  }

  private static Map<String, Entry> load() {
    Map<String, Entry> keys = new LinkedHashMap<>();
    try (InputStream in = PaimonOptionKeys.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "Missing resource " + RESOURCE + " beside " + PaimonOptionKeys.class);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = reader.readLine()) != null) {
        String trimmed = line.trim();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        String[] parts = trimmed.split("\\s+");
        Scope scope = Scope.valueOf(parts[1].toUpperCase(java.util.Locale.ROOT));
        List<String> allowed = parts.length > 2 ? Arrays.asList(parts[2].split(",")) : List.of();
        keys.put(parts[0], new Entry(scope, List.copyOf(allowed)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read resource " + RESOURCE, e);
    }
    return Collections.unmodifiableMap(keys);
  }
}

package io.basalt.spark.it;

import io.basalt.data.RowKind;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a primary-key table of {@link PropertyTables}' columns holds, computed independently of the
 * engine: each key's merged row under the table's merge engine, versions applied in write order
 * (each round writes a key at most once, so write order is sequence order).
 */
final class MergeModel {
  /** The merge engines and variants the property tests cover. */
  enum Engine {
    /** deduplicate: the newest version wins; -D and -U remove the key. */
    DEDUPLICATE,
    /** deduplicate with {@code sequence.field} = s: the version of highest s wins. */
    DEDUPLICATE_SEQUENCE,
    /** first-row: the first added version stays. */
    FIRST_ROW,
    /** partial-update, remove-record-on-delete: each non-null value overwrites; -D removes. */
    PARTIAL_UPDATE,
    /** partial-update with sequence group s -> (i, l): i and l follow the version of highest s. */
    PARTIAL_UPDATE_GROUP,
    /** aggregation: i sum, l max, d9 min, str last_value, others last_non_null_value. */
    AGGREGATION
  }

  private final Engine engine;
  private final Map<String, Object[]> rows = new TreeMap<>();
  // deduplicate with sequence.field: the s of the winning delete of a removed key
  private final Map<String, Long> tombstones = new HashMap<>();

  MergeModel(Engine engine) {
    this.engine = engine;
  }

  static String key(Object[] row) {
    return row[PropertyTables.P] + "/" + row[PropertyTables.K];
  }

  Collection<Object[]> rows() {
    return rows.values();
  }

  /** The s a new version of {@code key} must exceed not to be hidden by a removed delete. */
  long floor(String key) {
    return tombstones.getOrDefault(key, 0L);
  }

  /** Adds a column (schema evolution) that every row so far holds as null. */
  void addColumn() {
    rows.replaceAll((k, row) -> Arrays.copyOf(row, row.length + 1));
  }

  /** Removes {@code key} with every version of it (a DELETE that rewrites files). */
  void remove(String key) {
    rows.remove(key);
    tombstones.remove(key);
  }

  void apply(RowKind kind, Object[] version) {
    String key = key(version);
    Object[] current = rows.get(key);
    boolean add = kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER;
    switch (engine) {
      case DEDUPLICATE -> {
        if (add) {
          rows.put(key, version.clone());
        } else {
          rows.remove(key);
        }
      }
      case DEDUPLICATE_SEQUENCE -> {
        long s = (Long) version[PropertyTables.S];
        long currentS = current != null ? (Long) current[PropertyTables.S] : floor(key);
        if ((current == null && !tombstones.containsKey(key)) || s >= currentS) {
          if (add) {
            rows.put(key, version.clone());
            tombstones.remove(key);
          } else {
            rows.remove(key);
            tombstones.put(key, s);
          }
        }
      }
      case FIRST_ROW -> {
        if (add && current == null) {
          rows.put(key, version.clone());
        }
      }
      case PARTIAL_UPDATE, PARTIAL_UPDATE_GROUP, AGGREGATION -> {
        if (!add) {
          if (kind == RowKind.DELETE) {
            rows.remove(key);
          }
          return;
        }
        Object[] merged = current != null ? current : emptyRow(version);
        fold(merged, version);
        rows.put(key, merged);
      }
      default -> throw new IllegalStateException("No model of " + engine);
    }
  }

  private static Object[] emptyRow(Object[] version) {
    Object[] row = new Object[version.length];
    row[PropertyTables.P] = version[PropertyTables.P];
    row[PropertyTables.K] = version[PropertyTables.K];
    return row;
  }

  private void fold(Object[] merged, Object[] version) {
    boolean groupWins =
        engine == Engine.PARTIAL_UPDATE_GROUP
            && version[PropertyTables.S] != null
            && (merged[PropertyTables.S] == null
                || (Long) version[PropertyTables.S] >= (Long) merged[PropertyTables.S]);
    for (int c = PropertyTables.S; c < version.length; c++) {
      Object value = version[c];
      if (engine == Engine.PARTIAL_UPDATE_GROUP
          && (c == PropertyTables.S || c == PropertyTables.I || c == PropertyTables.L)) {
        if (groupWins) {
          merged[c] = value;
        }
      } else if (engine == Engine.AGGREGATION) {
        merged[c] = aggregate(c, merged[c], value);
      } else if (value != null) {
        merged[c] = value;
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object aggregate(int column, Object current, Object value) {
    if (column == PropertyTables.STR) {
      return value; // last_value
    }
    if (value == null) {
      return current;
    }
    if (current == null) {
      return value;
    }
    return switch (column) {
      case PropertyTables.I ->
          current instanceof Integer a && value instanceof Integer b
              ? (Object) (a + b)
              : (Object) (((Number) current).longValue() + ((Number) value).longValue());
      case PropertyTables.L -> ((Comparable) current).compareTo(value) >= 0 ? current : value;
      case PropertyTables.D9 ->
          ((BigDecimal) current).compareTo((BigDecimal) value) <= 0 ? current : value;
      default -> value; // last_non_null_value
    };
  }
}

package io.basalt.schema;

import io.basalt.options.TableOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Carries a top-level column's new name into the table options that name it, as Paimon's
 * SchemaManager does on {@code RENAME COLUMN}: the lists of {@code bucket-key} and {@code
 * sequence.field}, the column part of every {@code fields.<columns>.<setting>} key, and the columns
 * a {@code fields.<seq>.sequence-group} value lists. Without this the option would name a column
 * that no longer exists.
 */
public final class OptionRenames {
  private static final String FIELDS = "fields.";
  private static final String SEQUENCE_GROUP = "sequence-group";

  private OptionRenames() {}

  /** {@code options} with the renames among {@code changes} applied; the same map if none. */
  public static Map<String, String> apply(Map<String, String> options, List<SchemaChange> changes) {
    Map<String, String> renames = new HashMap<>();
    for (SchemaChange change : changes) {
      if (change instanceof SchemaChange.RenameColumn rename && rename.path().size() == 1) {
        // a chain (a -> b, then b -> c) renames a to c
        String from = rename.path().get(0);
        renames.replaceAll((old, now) -> now.equals(from) ? rename.newName() : now);
        renames.putIfAbsent(from, rename.newName());
      }
    }
    if (renames.isEmpty()) {
      return options;
    }
    Map<String, String> result = new HashMap<>();
    for (Map.Entry<String, String> entry : options.entrySet()) {
      String key = entry.getKey();
      String value = entry.getValue();
      if (key.equals(TableOptions.BUCKET_KEY.key())
          || key.equals(TableOptions.SEQUENCE_FIELD.key())) {
        value = renameList(value, renames);
      } else if (key.startsWith(FIELDS) && key.indexOf('.', FIELDS.length()) > FIELDS.length()) {
        // the columns end at the first dot after the prefix; a setting may hold dots itself
        int suffix = key.indexOf('.', FIELDS.length());
        String setting = key.substring(suffix + 1);
        key = FIELDS + renameList(key.substring(FIELDS.length(), suffix), renames) + "." + setting;
        if (setting.equals(SEQUENCE_GROUP)) {
          value = renameList(value, renames);
        }
      }
      result.put(key, value);
    }
    return result;
  }

  private static String renameList(String names, Map<String, String> renames) {
    List<String> renamed = new ArrayList<>();
    for (String name : names.split(",", -1)) {
      String trimmed = name.trim();
      renamed.add(renames.getOrDefault(trimmed, trimmed));
    }
    return String.join(",", renamed);
  }
}

package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.options.TableOptions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The top-level columns that options {@code sequence.field} and {@code bucket-key} name, and what
 * ALTER TABLE may do to them. As in Paimon: a rename carries the new name into the option ({@link
 * OptionRenames}); a drop is refused (the option would name a missing column, which Paimon's schema
 * validation refuses too); a {@code sequence.field} column retypes along the cast rules (files
 * written before are converted before their rows are merged, so versions are ordered by the new
 * type). Stricter than Paimon: a {@code bucket-key} column keeps its type, since a stored row's
 * bucket was computed from its old type's bytes.
 */
final class OptionColumns {
  private final Set<String> sequence = new HashSet<>();
  private final Set<String> bucket = new HashSet<>();
  private final String table;

  OptionColumns(Map<String, String> options, String table) {
    this.table = table;
    addAll(sequence, options.get(TableOptions.SEQUENCE_FIELD.key()));
    addAll(bucket, options.get(TableOptions.BUCKET_KEY.key()));
  }

  /** Refuses dropping a column either option names. */
  void checkDrop(List<String> path) {
    if (path.size() > 1) {
      return;
    }
    String name = path.get(0);
    if (bucket.contains(name)) {
      throw new BasaltException(
          String.format(
              "Cannot drop column '%s' of table %s: option '%s' names it, and the option is fixed"
                  + " when the table is created. Fix: create a new table without the column and"
                  + " copy the data (CREATE TABLE ... AS SELECT).",
              name, table, TableOptions.BUCKET_KEY.key()));
    }
    if (sequence.contains(name)) {
      throw new BasaltException(
          String.format(
              "Cannot drop column '%s' of table %s: option '%s' names it. Fix: change that option"
                  + " first (ALTER TABLE %s SET TBLPROPERTIES ('%s' = ...) or UNSET it), then drop"
                  + " the column.",
              name,
              table,
              TableOptions.SEQUENCE_FIELD.key(),
              table,
              TableOptions.SEQUENCE_FIELD.key()));
    }
  }

  /** Refuses retyping a {@code bucket-key} column. */
  void checkRetype(List<String> path) {
    if (path.size() == 1 && bucket.contains(path.get(0))) {
      throw new BasaltException(
          String.format(
              "Cannot change the type of column '%s' of table %s: option '%s' names it, and the"
                  + " bucket of every stored row was computed from the value in its current type,"
                  + " so rows and filters would look for it in another bucket. Fix: create a new"
                  + " table with the new type and copy the data (CREATE TABLE ... AS SELECT).",
              path.get(0), table, TableOptions.BUCKET_KEY.key()));
    }
  }

  private static void addAll(Set<String> names, String value) {
    if (value != null) {
      for (String name : value.split(",")) {
        names.add(name.trim());
      }
    }
  }
}

package io.basalt.merge;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.options.MergeEngineOptions;
import io.basalt.options.TableOptions;

/** The user-facing errors of the merge engines, each naming the table, option or column and fix. */
final class MergeErrors {
  private MergeErrors() {}

  static BasaltException missingColumn(String table, String column, String optionKey, String all) {
    return new BasaltException(
        String.format(
            "Column '%s' named in option '%s' does not exist in table %s; its columns are %s."
                + " Fix: name an existing column in '%s'.",
            column, optionKey, table, all, optionKey));
  }

  static BasaltException columnInTwoGroups(
      String table, String column, String firstKey, String secondKey) {
    return new BasaltException(
        String.format(
            "Column '%s' of table %s is in two sequence groups, '%s' and '%s'; a column can be"
                + " updated by one sequence group only. Fix: list '%s' in one of the two options.",
            column, table, firstKey, secondKey, column));
  }

  static BasaltException notForEngine(String table, String optionKey, String engine, String needs) {
    return new BasaltException(
        String.format(
            "Option '%s' on table %s has no effect with '%s' = '%s'; it applies to merge-engine %s."
                + " Fix: remove the option or create the table with '%s' = %s.",
            optionKey,
            table,
            TableOptions.MERGE_ENGINE.key(),
            engine,
            needs,
            TableOptions.MERGE_ENGINE.key(),
            needs));
  }

  static BasaltException aggregateOutsideGroup(String table, String column) {
    String key = FieldOptions.key(column, FieldOptions.AGGREGATE_FUNCTION);
    return new BasaltException(
        String.format(
            "Option '%s' on partial-update table %s: column '%s' is not in a sequence group, and"
                + " partial-update aggregates only columns of a sequence group. Fix: add '%s' to"
                + " a 'fields.<sequence-field>.sequence-group' option or remove '%s'.",
            key, table, column, column, key));
  }

  static BasaltException aggregateOnKey(String table, String column) {
    String key = FieldOptions.key(column, FieldOptions.AGGREGATE_FUNCTION);
    return new BasaltException(
        String.format(
            "Option '%s' on table %s: column '%s' is part of the primary key, which is never"
                + " aggregated. Fix: remove '%s'.",
            key, table, column, key));
  }

  static BasaltException nestedKeyNotArray(String table, String column, String type) {
    String key = FieldOptions.key(column, FieldOptions.NESTED_KEY);
    return new BasaltException(
        String.format(
            "Option '%s' on table %s: column '%s' has type %s, but a nested key needs an"
                + " ARRAY<STRUCT<...>> column (for nested_update or nested_partial_update). Fix:"
                + " remove '%s' or set it on an array-of-struct column.",
            key, table, column, type, key));
  }

  static BasaltException firstRowSequenceField(String table) {
    return new BasaltException(
        String.format(
            "Table %s: option '%s' cannot be used with '%s' = 'first-row', which keeps the row"
                + " written first. Fix: remove '%s' or use another merge engine.",
            table,
            TableOptions.SEQUENCE_FIELD.key(),
            TableOptions.MERGE_ENGINE.key(),
            TableOptions.SEQUENCE_FIELD.key()));
  }

  static BasaltException removeOnDeleteWithGroups(String table) {
    return new BasaltException(
        String.format(
            "Table %s: option '%s' cannot be combined with sequence groups, where a delete"
                + " retracts the columns of its groups. Fix: remove '%s', or use '%s' to remove"
                + " the row on deletes of chosen groups.",
            table,
            MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key(),
            MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key(),
            MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key()));
  }

  static BasaltException notASequenceField(String table, String column) {
    String key = MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key();
    return new BasaltException(
        String.format(
            "Option '%s' on table %s names '%s', which is not the sequence field of any"
                + " 'fields.<sequence-field>.sequence-group'. Fix: name sequence fields of"
                + " defined groups.",
            key, table, column));
  }

  static BasaltException firstRowRetraction(String table, RowKind kind) {
    return new BasaltException(
        String.format(
            "Table %s uses merge-engine 'first-row', which keeps the first row of each key and"
                + " cannot apply a %s row. Fix: set '%s' = 'true' to drop delete and"
                + " update-before rows.",
            table, kind.shortString(), MergeEngineOptions.IGNORE_DELETE.key()));
  }

  static BasaltException partialUpdateRetraction(String table, RowKind kind) {
    return new BasaltException(
        String.format(
            "Table %s uses merge-engine 'partial-update', which cannot apply a %s row by default."
                + " Fix: set one of '%s' = 'true' (drop delete rows), '%s' = 'true' (a delete"
                + " removes the whole row), or define 'fields.<sequence-field>.sequence-group'"
                + " options (a delete retracts the columns of its groups; with '%s' a delete in"
                + " the named groups removes the whole row).",
            table,
            kind.shortString(),
            MergeEngineOptions.IGNORE_DELETE.key(),
            MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key(),
            MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key()));
  }

  static BasaltException aggregationRetraction(
      String table, RowKind kind, String column, String function) {
    return new BasaltException(
        String.format(
            "Table %s cannot apply a %s row: column '%s' uses aggregate function '%s', which"
                + " cannot retract a value (retractable: sum, product, collect, merge_map,"
                + " nested_update, last_value, last_non_null_value). Fix: set '%s' = 'true' to"
                + " keep its value on retractions, '%s' = 'true' to remove the whole row on"
                + " deletes, or '%s' = 'true' to drop delete and update-before rows.",
            table,
            kind.shortString(),
            column,
            function,
            FieldOptions.key(column, FieldOptions.IGNORE_RETRACT),
            MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE.key(),
            MergeEngineOptions.IGNORE_DELETE.key()));
  }
}

package io.basalt.merge;

import io.basalt.BasaltException;
import io.basalt.data.ValueComparators;
import io.basalt.merge.aggregate.FieldAggregators;
import io.basalt.options.MergeEngineOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.StructType;

/**
 * Checks the merge-engine options of a table (at CREATE TABLE, ALTER TABLE and whenever a merge
 * engine is built) and derives the sequence groups and aggregate functions from them.
 */
final class MergeEngineValidation {
  private final TableSchema schema;
  private final Options options;
  private final String table;
  private final MergeEngine.Kind kind;

  MergeEngineValidation(TableSchema schema, Options options, String table, MergeEngine.Kind kind) {
    this.schema = schema;
    this.options = options;
    this.table = table;
    this.kind = kind;
    checkFieldColumns();
    if (kind == MergeEngine.Kind.FIRST_ROW && options.contains(TableOptions.SEQUENCE_FIELD)) {
      throw MergeErrors.firstRowSequenceField(table);
    }
  }

  /** Every {@code fields.<column>.<setting>} names an existing column of a fitting type. */
  private void checkFieldColumns() {
    for (String setting : FieldOptions.COLUMN_SETTINGS) {
      for (String column : FieldOptions.columnsWith(options, setting)) {
        DataField field = schema.field(column);
        if (field == null) {
          throw MergeErrors.missingColumn(
              table, column, FieldOptions.key(column, setting), columnNames());
        }
        boolean arrayOfStruct =
            field.type() instanceof ArrayType array && array.elementType() instanceof StructType;
        if (setting.equals(FieldOptions.NESTED_KEY) && !arrayOfStruct) {
          throw MergeErrors.nestedKeyNotArray(table, column, field.type().sql());
        }
      }
    }
  }

  /** The sequence groups, checked: columns exist, sequence fields order, no column twice. */
  List<SequenceGroup> sequenceGroups() {
    List<SequenceGroup> groups = new ArrayList<>();
    Map<String, String> owner = new HashMap<>();
    for (String sequence : FieldOptions.columnsWith(options, "sequence-group")) {
      String key = FieldOptions.key(sequence, "sequence-group");
      if (kind != MergeEngine.Kind.PARTIAL_UPDATE) {
        throw MergeErrors.notForEngine(table, key, kind.value(), "'partial-update'");
      }
      List<String> sequenceFields = FieldOptions.names(sequence);
      List<String> fields = FieldOptions.names(options.raw(key).orElse(""));
      for (String name : sequenceFields) {
        DataField field = existing(name, key);
        if (!ValueComparators.isOrderable(field.type())) {
          throw new BasaltException(
              String.format(
                  "Sequence field '%s' of option '%s' on table %s has type %s, which cannot be"
                      + " ordered. Fix: use a numeric, string, date or timestamp column.",
                  name, key, table, field.type().sql()));
        }
      }
      List<String> all = new ArrayList<>(sequenceFields);
      all.addAll(fields);
      for (String name : all) {
        existing(name, key);
        if (schema.primaryKeys().contains(name)) {
          throw new BasaltException(
              String.format(
                  "Option '%s' on table %s names primary-key column '%s'; key columns never"
                      + " change. Fix: list only value columns.",
                  key, table, name));
        }
        String previous = owner.putIfAbsent(name, key);
        if (previous != null && !previous.equals(key)) {
          throw MergeErrors.columnInTwoGroups(table, name, previous, key);
        }
      }
      groups.add(new SequenceGroup(key, sequenceFields, fields));
    }
    return groups;
  }

  /**
   * The aggregate function of each column the engine aggregates: aggregation aggregates every value
   * column (default {@code last_non_null_value} or {@code fields.default-aggregate-function});
   * partial-update only sequence-group members with a function.
   */
  Map<String, String> aggregateFunctions(List<SequenceGroup> groups) {
    String defaultKey = MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION.key();
    boolean aggregates =
        kind == MergeEngine.Kind.AGGREGATION || kind == MergeEngine.Kind.PARTIAL_UPDATE;
    List<String> explicit = FieldOptions.columnsWith(options, FieldOptions.AGGREGATE_FUNCTION);
    if (!aggregates && !explicit.isEmpty()) {
      throw MergeErrors.notForEngine(
          table,
          FieldOptions.key(explicit.get(0), FieldOptions.AGGREGATE_FUNCTION),
          kind.value(),
          "'aggregation' or 'partial-update'");
    }
    if (!aggregates && options.contains(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION)) {
      throw MergeErrors.notForEngine(
          table, defaultKey, kind.value(), "'aggregation' or 'partial-update'");
    }
    for (String column : explicit) {
      if (schema.primaryKeys().contains(column)) {
        throw MergeErrors.aggregateOnKey(table, column);
      }
      if (kind == MergeEngine.Kind.PARTIAL_UPDATE && !inGroupFields(groups, column)) {
        throw MergeErrors.aggregateOutsideGroup(table, column);
      }
    }
    String fallback =
        options
            .getOptional(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION)
            .map(String::trim)
            .orElse(
                kind == MergeEngine.Kind.AGGREGATION
                    ? MergeEngine.DEFAULT_AGGREGATE_FUNCTION
                    : null);
    if (fallback != null && !FieldAggregators.isKnown(fallback)) {
      throw new BasaltException(
          String.format(
              "Unknown aggregate function '%s' in option '%s' on table %s. Fix: set '%s' to a"
                  + " function listed in docs/merge-engines.md, e.g. 'last_non_null_value'.",
              fallback, defaultKey, table, defaultKey));
    }
    Map<String, String> functions = new LinkedHashMap<>();
    for (DataField field : schema.fields()) {
      String name = field.name();
      boolean eligible =
          kind == MergeEngine.Kind.AGGREGATION
              ? !schema.primaryKeys().contains(name)
              : kind == MergeEngine.Kind.PARTIAL_UPDATE && inGroupFields(groups, name);
      String function =
          FieldOptions.get(options, name, FieldOptions.AGGREGATE_FUNCTION).orElse(fallback);
      if (eligible && function != null) {
        // builds the aggregator once so an unknown function or unsupported type fails now
        FieldAggregators.create(table, name, field.type(), function, options);
        functions.put(name, function);
      }
    }
    return functions;
  }

  /** The delete options fit the engine and the sequence groups. */
  void deleteOptions(List<SequenceGroup> groups) {
    boolean removeOnDelete = options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE);
    String onGroupKey = MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key();
    if (kind != MergeEngine.Kind.PARTIAL_UPDATE && removeOnDelete) {
      throw MergeErrors.notForEngine(
          table,
          MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key(),
          kind.value(),
          "'partial-update'");
    }
    if (kind != MergeEngine.Kind.PARTIAL_UPDATE
        && options.contains(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP)) {
      throw MergeErrors.notForEngine(table, onGroupKey, kind.value(), "'partial-update'");
    }
    if (kind != MergeEngine.Kind.AGGREGATION
        && options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE)) {
      throw MergeErrors.notForEngine(
          table,
          MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE.key(),
          kind.value(),
          "'aggregation'");
    }
    if (removeOnDelete && !groups.isEmpty()) {
      throw MergeErrors.removeOnDeleteWithGroups(table);
    }
    for (String name :
        FieldOptions.names(
            options
                .getOptional(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP)
                .orElse(""))) {
      if (groups.stream().noneMatch(g -> g.sequenceFields().contains(name))) {
        throw MergeErrors.notASequenceField(table, name);
      }
    }
  }

  private static boolean inGroupFields(List<SequenceGroup> groups, String column) {
    return groups.stream().anyMatch(g -> g.fields().contains(column));
  }

  private DataField existing(String name, String optionKey) {
    DataField field = schema.field(name);
    if (field == null) {
      throw MergeErrors.missingColumn(table, name, optionKey, columnNames());
    }
    return field;
  }

  private String columnNames() {
    List<String> names = new ArrayList<>();
    for (DataField field : schema.fields()) {
      names.add(field.name());
    }
    return String.join(", ", names);
  }
}

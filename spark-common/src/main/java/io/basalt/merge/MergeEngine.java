package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.merge.aggregate.FieldAggregator;
import io.basalt.merge.aggregate.FieldAggregators;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.MergeEngineOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The merge engine of a primary-key table ({@code merge-engine} and its options), validated: builds
 * the {@link MergeFunction} every place where versions of a key meet uses (reads, the write buffer,
 * compaction, deletion-vector lookups), says which extra columns a merge needs, and decides what a
 * writer does with retraction rows.
 */
public final class MergeEngine {
  /** The merge engines, by their option value. */
  public enum Kind {
    DEDUPLICATE("deduplicate"),
    PARTIAL_UPDATE("partial-update"),
    AGGREGATION("aggregation"),
    FIRST_ROW("first-row");

    private final String value;

    Kind(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }

    static Kind of(String value) {
      for (Kind kind : values()) {
        if (kind.value.equals(value.toLowerCase(Locale.ROOT))) {
          return kind;
        }
      }
      throw new IllegalArgumentException("Unknown merge engine " + value);
    }
  }

  static final String DEFAULT_AGGREGATE_FUNCTION = "last_non_null_value";

  private final Kind kind;
  private final String table;
  private final TableSchema schema;
  private final Options options;
  private final boolean ignoreDelete;
  private final List<SequenceGroup> groups;

  /** Column -> aggregate function, for the columns the engine aggregates. */
  private final Map<String, String> functions;

  /** The first aggregated column (and its function) that cannot retract, or null. */
  private final String[] nonRetractable;

  private MergeEngine(
      Kind kind,
      String table,
      TableSchema schema,
      Options options,
      List<SequenceGroup> groups,
      Map<String, String> functions) {
    this.kind = kind;
    this.table = table;
    this.schema = schema;
    this.options = options;
    this.ignoreDelete = options.get(MergeEngineOptions.IGNORE_DELETE);
    this.groups = List.copyOf(groups);
    this.functions = Map.copyOf(functions);
    this.nonRetractable = findNonRetractable();
  }

  /** The merge engine of {@code table}. */
  public static MergeEngine of(FileStoreTable table) {
    return of(table.schema(), table.options(), table.name());
  }

  /**
   * The merge engine a schema and its options define, validated.
   *
   * @throws io.basalt.BasaltException naming the option, the column and the fix when an option is
   *     invalid, names a missing column, or does not fit the engine or the column type
   */
  public static MergeEngine of(TableSchema schema, Options options, String table) {
    Kind kind = Kind.of(options.get(TableOptions.MERGE_ENGINE));
    MergeEngineValidation validation = new MergeEngineValidation(schema, options, table, kind);
    List<SequenceGroup> groups = validation.sequenceGroups();
    Map<String, String> functions = validation.aggregateFunctions(groups);
    validation.deleteOptions(groups);
    return new MergeEngine(kind, table, schema, options, groups, functions);
  }

  public Kind kind() {
    return kind;
  }

  /** What a write does with a row whose key already lives in another partition. */
  public enum CrossPartitionRule {
    /** Delete the row in its old partition and write the new one in its new partition. */
    MOVE,
    /** Write the new row into the key's existing partition (its own partition is ignored). */
    UPDATE_IN_PLACE,
    /** Keep the existing row; drop the new one. */
    KEEP_FIRST
  }

  /**
   * Paimon's rule for a key that arrives in another partition than the one it lives in (and for the
   * rows of one key within a write): deduplicate moves it, partial-update and aggregation update it
   * where it is, first-row keeps the first.
   */
  public CrossPartitionRule crossPartitionRule() {
    return switch (kind) {
      case DEDUPLICATE -> CrossPartitionRule.MOVE;
      case PARTIAL_UPDATE, AGGREGATION -> CrossPartitionRule.UPDATE_IN_PLACE;
      case FIRST_ROW -> CrossPartitionRule.KEEP_FIRST;
    };
  }

  /** Whether a deletion-vector lookup keeps the older version of a key instead of the newer. */
  public boolean keepsOldest() {
    return kind == Kind.FIRST_ROW;
  }

  /**
   * Whether level 0 is invisible to batch reads even without deletion vectors, so writers must move
   * it up by a lookup at every commit: first-row, as in Paimon, where only the lookup (which keeps
   * the oldest version) guarantees one live version per key above level 0.
   */
  public boolean hidesLevel0() {
    return keepsOldest();
  }

  /**
   * Whether the merge of a key's lone version is that version itself when it is an add (+I/+U), and
   * nothing when it is a retraction, so that a key range where one sorted run holds every row may
   * be read without merging, retractions filtered out. True for deduplicate; for first-row when
   * retractions are ignored or the files hold none (without {@code ignore-delete} its merge rejects
   * them). Partial-update and aggregation build a new row from each lone version (aggregators such
   * as {@code collect} with distinct change it, partial-update keeps lone retractions), so they
   * always merge.
   *
   * @param mayHoldRetractions whether the rows may include -U/-D rows
   */
  public boolean keepsLoneVersion(boolean mayHoldRetractions) {
    return switch (kind) {
      case DEDUPLICATE -> true;
      case FIRST_ROW -> ignoreDelete || !mayHoldRetractions;
      case PARTIAL_UPDATE, AGGREGATION -> false;
    };
  }

  /** Whether a deletion-vector lookup must merge the older version's values with the new row. */
  public boolean mergesWithOldValue() {
    return kind == Kind.PARTIAL_UPDATE || kind == Kind.AGGREGATION;
  }

  /**
   * Decides what a writer does with a row of {@code rowKind}: true to write it, false to drop it
   * ({@code ignore-delete}).
   *
   * @throws io.basalt.BasaltException when the engine cannot apply such a row, naming the options
   *     that would allow it
   */
  public boolean acceptsWrite(RowKind rowKind) {
    if (RowKind.isAdd(rowKind.value())) {
      return true;
    }
    if (ignoreDelete) {
      return false;
    }
    switch (kind) {
      case FIRST_ROW:
        throw MergeErrors.firstRowRetraction(table, rowKind);
      case PARTIAL_UPDATE:
        boolean removes =
            options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE)
                || options.contains(
                    MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
        if (!removes && groups.isEmpty()) {
          throw MergeErrors.partialUpdateRetraction(table, rowKind);
        }
        if (!groups.isEmpty() && nonRetractable != null) {
          throw MergeErrors.aggregationRetraction(
              table, rowKind, nonRetractable[0], nonRetractable[1]);
        }
        return true;
      case AGGREGATION:
        boolean removesRow =
            rowKind == RowKind.DELETE
                && options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE);
        if (!removesRow && nonRetractable != null) {
          throw MergeErrors.aggregationRetraction(
              table, rowKind, nonRetractable[0], nonRetractable[1]);
        }
        return true;
      default:
        return true;
    }
  }

  /**
   * {@code values} (the value columns a read wants) plus the columns the merge needs to decide it:
   * the sequence fields of partial-update's sequence groups.
   */
  public List<DataField> withMergeColumns(List<DataField> values) {
    List<DataField> all = new ArrayList<>(values);
    Set<String> present = new HashSet<>();
    for (DataField field : values) {
      present.add(field.name());
    }
    for (SequenceGroup group : groups) {
      for (String name : group.sequenceFields()) {
        if (present.add(name)) {
          all.add(schema.field(name));
        }
      }
    }
    return all;
  }

  /**
   * A new merge function over key-value rows of {@code layout} whose value columns are {@code
   * values} (which must include {@link #withMergeColumns}).
   */
  public MergeFunction newMergeFunction(KeyValueLayout layout, List<DataField> values) {
    switch (kind) {
      case FIRST_ROW:
        return new FirstRowMergeFunction(layout, values, ignoreDelete, table);
      case PARTIAL_UPDATE:
        return retractionsPassThrough(
            layout,
            new PartialUpdateMergeFunction(
                layout, values, keyFlags(values), groups, aggregators(values), options, table));
      case AGGREGATION:
        return retractionsPassThrough(
            layout,
            new AggregateMergeFunction(
                layout,
                values,
                keyFlags(values),
                aggregators(values),
                ignoreDelete,
                options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE),
                table));
      default:
        return new DeduplicateMergeFunction(layout, values, ignoreDelete);
    }
  }

  /**
   * Engines that build a new row keep a key's lone retraction as it is ({@link
   * ReducingMergeFunction}); with {@code ignore-delete} the function drops it instead.
   * Deduplicate's result of a lone version is that version already; first-row rejects or drops
   * retractions.
   */
  private MergeFunction retractionsPassThrough(KeyValueLayout layout, MergeFunction function) {
    return ignoreDelete ? function : new ReducingMergeFunction(function, layout.kindIndex());
  }

  private boolean[] keyFlags(List<DataField> values) {
    boolean[] keys = new boolean[values.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = schema.primaryKeys().contains(values.get(i).name());
    }
    return keys;
  }

  /** A new aggregator per value column that has a function, else null. */
  private FieldAggregator[] aggregators(List<DataField> values) {
    FieldAggregator[] aggregators = new FieldAggregator[values.size()];
    for (int i = 0; i < aggregators.length; i++) {
      DataField field = values.get(i);
      String function = functions.get(field.name());
      if (function != null) {
        aggregators[i] =
            FieldAggregators.create(table, field.name(), field.type(), function, options);
      }
    }
    return aggregators;
  }

  private String[] findNonRetractable() {
    if (functions.isEmpty()) {
      return null;
    }
    Map<String, String> ordered = new LinkedHashMap<>();
    for (DataField field : schema.fields()) {
      if (functions.containsKey(field.name())) {
        ordered.put(field.name(), functions.get(field.name()));
      }
    }
    for (Map.Entry<String, String> e : ordered.entrySet()) {
      DataField field = schema.field(e.getKey());
      FieldAggregator aggregator =
          FieldAggregators.create(table, field.name(), field.type(), e.getValue(), options);
      if (!aggregator.supportsRetract()) {
        return new String[] {e.getKey(), e.getValue()};
      }
    }
    return null;
  }
}

package io.basalt.merge;

import io.basalt.options.MergeEngineOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;

/**
 * What a table's merge engine ({@code merge-engine}) means for planning, statements and writes,
 * answered from the options alone, without validating the engine's own options as {@link
 * MergeEngine#of} does. Every rule that depends on which engine a table has lives here or in {@link
 * MergeEngine}, so no other package compares engine names.
 *
 * @since 0.1
 */
public final class MergeEngineRules {
  private final MergeEngine.Kind kind;
  private final Options options;

  private MergeEngineRules(MergeEngine.Kind kind, Options options) {
    this.kind = kind;
    this.options = options;
  }

  /** The rules of the engine {@code options} name (deduplicate when they name none). */
  public static MergeEngineRules of(Options options) {
    return new MergeEngineRules(
        MergeEngine.Kind.of(options.get(TableOptions.MERGE_ENGINE)), options);
  }

  /** The engine's option value, for messages. */
  public String name() {
    return kind.value();
  }

  /**
   * Whether rows of one key merge into something other than the latest version: every engine but
   * deduplicate, the default, which is the only one an append table (no key) may name.
   */
  public boolean mergesVersions() {
    return kind != MergeEngine.Kind.DEDUPLICATE;
  }

  /**
   * Whether a file's value statistics may decide whether a key's merged row matches a filter: true
   * when the merged row is one version as written (deduplicate, first-row); partial-update and
   * aggregation build a row from several versions, so no single version's statistics tell.
   */
  public boolean valueFiltersSafe() {
    return kind == MergeEngine.Kind.DEDUPLICATE || kind == MergeEngine.Kind.FIRST_ROW;
  }

  /**
   * Whether the engine removes a key when it meets a retraction (-D row), as Paimon defines it:
   * deduplicate always; partial-update with {@code partial-update.remove-record-on-delete} or
   * {@code partial-update.remove-record-on-sequence-group}; aggregation with {@code
   * aggregation.remove-record-on-delete}; first-row never. {@code ignore-delete} is not considered.
   */
  public boolean deletesByKey() {
    return switch (kind) {
      case DEDUPLICATE -> true;
      case PARTIAL_UPDATE ->
          options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE)
              || options.contains(
                  MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
      case AGGREGATION -> options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE);
      case FIRST_ROW -> false;
    };
  }

  /** The options that make the engine honour -D rows ({@link #deletesByKey}), for messages. */
  public String optionsAllowingDeleteByKey() {
    return switch (kind) {
      case PARTIAL_UPDATE ->
          String.format(
              "'%s' = 'true', or '%s' = '<sequence fields>', or '%s' = 'true' (deletes are then"
                  + " dropped)",
              MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key(),
              MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key(),
              MergeEngineOptions.IGNORE_DELETE.key());
      case AGGREGATION ->
          String.format(
              "'%s' = 'true', or '%s' = 'true' (deletes are then dropped)",
              MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE.key(),
              MergeEngineOptions.IGNORE_DELETE.key());
      default ->
          String.format(
              "'%s' = 'true' (deletes are then dropped)", MergeEngineOptions.IGNORE_DELETE.key());
    };
  }

  /**
   * Whether a new version of a whole row replaces the old one, as UPDATE and MERGE INTO need:
   * deduplicate and partial-update; first-row and aggregation would keep or fold in the old row.
   */
  public boolean replacesWholeRows() {
    return kind == MergeEngine.Kind.DEDUPLICATE || kind == MergeEngine.Kind.PARTIAL_UPDATE;
  }

  /** How the engine combines a new version with the old one, for messages. */
  public String howVersionsMerge() {
    return switch (kind) {
      case FIRST_ROW -> "keeping the first one";
      case AGGREGATION -> "aggregating them";
      case PARTIAL_UPDATE -> "updating the non-null columns";
      case DEDUPLICATE -> "keeping the last one";
    };
  }

  /**
   * Whether only a key's latest version survives, so an update's -U row is replaced by the +U right
   * after it: deduplicate.
   */
  public boolean keepsLatestVersionOnly() {
    return kind == MergeEngine.Kind.DEDUPLICATE;
  }

  /** Whether every value column merges through an aggregate function: aggregation. */
  public boolean aggregatesValueColumns() {
    return kind == MergeEngine.Kind.AGGREGATION;
  }

  /**
   * Whether the rows as written are the table's changes, so an input or full-compaction changelog
   * can be produced: not on first-row, which keeps each key's first row and drops the rest.
   */
  public boolean writtenRowsAreChanges() {
    return kind != MergeEngine.Kind.FIRST_ROW;
  }
}

package io.basalt.options;

/**
 * Options of the merge engines other than the key itself: how deletes are honoured and the
 * table-wide aggregation default. Per-field options ({@code fields.<f>.aggregate-function}, {@code
 * fields.<g>.sequence-group}, ...) are patterns and are validated where the merge engine is built.
 */
public final class MergeEngineOptions {
  private MergeEngineOptions() {}

  public static final ConfigOption<Boolean> IGNORE_DELETE =
      ConfigOption.key("ignore-delete")
          .booleanType()
          .defaultValue(false)
          .description(
              "Drop delete (-D) and update-before (-U) rows when they are written instead of"
                  + " applying them, on every merge engine. first-row needs it to accept such rows.");

  public static final ConfigOption<Boolean> PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE =
      ConfigOption.key("partial-update.remove-record-on-delete")
          .booleanType()
          .defaultValue(false)
          .description(
              "partial-update: a -D row removes the whole row of its key (an -U row is"
                  + " ignored). Cannot be combined with sequence groups.");

  public static final ConfigOption<String> PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP =
      ConfigOption.key("partial-update.remove-record-on-sequence-group")
          .stringType()
          .description(
              "partial-update: comma-separated sequence fields of sequence groups; a -D row whose"
                  + " sequence field is at least as new as the current one in one of these groups"
                  + " removes the whole row of its key; other retractions retract their groups.");

  public static final ConfigOption<Boolean> AGGREGATION_REMOVE_RECORD_ON_DELETE =
      ConfigOption.key("aggregation.remove-record-on-delete")
          .booleanType()
          .defaultValue(false)
          .description(
              "aggregation: a -D row removes the whole row of its key instead of retracting its"
                  + " values; -U rows still retract.");

  public static final ConfigOption<String> FIELDS_DEFAULT_AGGREGATE_FUNCTION =
      ConfigOption.key("fields.default-aggregate-function")
          .stringType()
          .description(
              "aggregation and partial-update: the function of columns without their own"
                  + " 'fields.<f>.aggregate-function' (aggregation: every value column, default"
                  + " last_non_null_value; partial-update: columns of sequence groups, which"
                  + " otherwise take the newest group values).");
}

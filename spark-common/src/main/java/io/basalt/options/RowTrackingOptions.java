package io.basalt.options;

/** Options of row tracking: stable row ids ({@code _ROW_ID}) on append tables. */
public final class RowTrackingOptions {
  private RowTrackingOptions() {}

  public static final ConfigOption<Boolean> ROW_TRACKING_ENABLED =
      ConfigOption.key("row-tracking.enabled")
          .booleanType()
          .defaultValue(false)
          .description(
              "Append tables with bucket -1: give every row a stable _ROW_ID and a"
                  + " _SEQUENCE_NUMBER (the snapshot that last wrote it), readable as metadata"
                  + " columns. Ids survive compaction and copy-on-write UPDATE/MERGE/DELETE. Fixed"
                  + " when the table is created.");

  public static final ConfigOption<Boolean> DATA_EVOLUTION_ENABLED =
      ConfigOption.key("data-evolution.enabled")
          .booleanType()
          .defaultValue(false)
          .description(
              "Row-tracking tables: allow files that hold only some columns of a row range."
                  + " Needs 'row-tracking.enabled' and no deletion vectors; BLOB columns need it.");
}

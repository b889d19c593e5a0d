package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import io.basalt.options.RowTrackingOptions;
import io.basalt.options.TableOptions;

/** The checks of a table definition's row-tracking and data-evolution options. */
final class RowTrackingValidation {
  private static final String ROW_ID = "_ROW_ID";
  private static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";

  private RowTrackingValidation() {}

  /**
   * Checks the row-tracking options of a table definition: row tracking needs an append table with
   * bucket -1 and no column of the tracking columns' names; data evolution needs row tracking and
   * no deletion vectors.
   *
   * @throws BasaltException naming the option, the table and the fix otherwise
   */
  static void validate(TableSchema schema, Options options, String table) {
    String key = RowTrackingOptions.ROW_TRACKING_ENABLED.key();
    boolean enabled = options.get(RowTrackingOptions.ROW_TRACKING_ENABLED);
    if (enabled && schema.hasPrimaryKey()) {
      throw new BasaltException(
          String.format(
              "Cannot enable '%s' on table %s: it has a primary key (%s), and row tracking is for"
                  + " append tables only. Fix: drop the primary key or remove '%s'.",
              key, table, String.join(", ", schema.primaryKeys()), key));
    }
    int bucket = options.get(TableOptions.BUCKET);
    if (enabled && bucket != -1) {
      throw new BasaltException(
          String.format(
              "Cannot enable '%s' on table %s with '%s' = '%s': row tracking needs a"
                  + " bucket-unaware table. Fix: set '%s' = '-1' or remove '%s'.",
              key, table, TableOptions.BUCKET.key(), bucket, TableOptions.BUCKET.key(), key));
    }
    for (String name : new String[] {ROW_ID, SEQUENCE_NUMBER}) {
      if (enabled && schema.field(name) != null) {
        throw new BasaltException(
            String.format(
                "Cannot enable '%s' on table %s: its column '%s' has the name of a row-tracking"
                    + " column. Fix: rename the column.",
                key, table, name));
      }
    }
    String evolution = RowTrackingOptions.DATA_EVOLUTION_ENABLED.key();
    if (options.get(RowTrackingOptions.DATA_EVOLUTION_ENABLED)) {
      if (!enabled) {
        throw new BasaltException(
            String.format(
                "Cannot enable '%s' on table %s without row tracking. Fix: also set '%s' ="
                    + " 'true' when creating the table.",
                evolution, table, key));
      }
      if (options.get(TableOptions.DELETION_VECTORS_ENABLED)) {
        throw new BasaltException(
            String.format(
                "Cannot enable both '%s' and '%s' on table %s. Fix: remove '%s'.",
                evolution,
                TableOptions.DELETION_VECTORS_ENABLED.key(),
                table,
                TableOptions.DELETION_VECTORS_ENABLED.key()));
      }
    }
  }
}

package io.basalt.spark.write;

/** The message of an UPDATE or MERGE INTO that assigns a key or partition column. */
public final class KeyColumnUpdates {
  private KeyColumnUpdates() {}

  /**
   * @param statement {@code UPDATE} or {@code MERGE INTO}
   * @param column the assigned primary-key or partition column
   */
  public static String message(String statement, String table, String column) {
    return message(statement, table, column, false);
  }

  /**
   * @param movesPartition whether {@code column} is a partition column of a cross-partition upsert
   *     table, whose key an INSERT INTO moves to another partition
   */
  public static String message(
      String statement, String table, String column, boolean movesPartition) {
    if (movesPartition) {
      return String.format(
          "%s cannot change partition column '%s' of cross-partition upsert table %s: the row"
              + " would stay in its old partition too. Fix: leave '%s' out of the SET clause, and"
              + " INSERT INTO %s the row with its new '%s', which moves the key (deduplicate) or"
              + " updates it where it is (other merge engines).",
          statement, column, table, column, table, column);
    }
    return String.format(
        "%s cannot change column '%s' of table %s: it is part of the primary key (partition"
            + " columns included), which identifies the row. Fix: leave '%s' out of the SET"
            + " clause; to move a row to another key, DELETE it and INSERT it with the new key.",
        statement, column, table, column);
  }
}

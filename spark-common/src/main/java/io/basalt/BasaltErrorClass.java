package io.basalt;

/**
 * The stable error classes of Basalt's own errors, as Spark reports them ({@code getCondition()})
 * next to a SQLSTATE. Users and tools match on these names and on the parameters; the message text
 * may change. The catalog with each class's parameters is {@code docs/errors.md}.
 */
public enum BasaltErrorClass {
  /** A table, read, write or session option has a value that is not valid. */
  BASALT_INVALID_OPTION("22023"),
  /** The statement or table setup asks for something Basalt does not support. */
  BASALT_UNSUPPORTED_FEATURE("0A000"),
  /** A row, argument or value given to Basalt is not valid. */
  BASALT_INVALID_INPUT("22000"),
  /** A commit conflicts with concurrent commits; nothing of it was published. Retry. */
  BASALT_COMMIT_CONFLICT("40001"),
  /** Publishing a snapshot failed in a way that leaves open whether it happened. */
  BASALT_COMMIT_STATE_UNKNOWN("58030"),
  /** A metadata file of the table is missing, unreadable or damaged. */
  BASALT_CORRUPT_METADATA("XX001"),
  /** Any other Basalt error; its message says what failed and the fix. */
  BASALT_ERROR("XX000");

  private final String sqlState;

  BasaltErrorClass(String sqlState) {
    this.sqlState = sqlState;
  }

  /** The SQLSTATE Spark reports for errors of this class. */
  public String sqlState() {
    return sqlState;
  }
}

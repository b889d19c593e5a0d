package io.basalt.operation.read;

import io.basalt.BasaltException;
import io.basalt.table.DataSplit;
import org.apache.hadoop.fs.Path;

/** The errors of readers of data files, worded once for the row and the columnar reads. */
public final class DataFileErrors {
  private DataFileErrors() {}

  /**
   * An error opening a data file of {@code split} of table {@code tableName}, naming the file, the
   * snapshot and the fix; the same for every reader of data files.
   */
  public static BasaltException openFailure(
      String tableName, DataSplit split, Path path, RuntimeException e) {
    String where = " of snapshot " + split.snapshotId() + " of table " + tableName;
    if (missingFile(e)) {
      return new BasaltException(
          "Data file "
              + path
              + where
              + " does not exist. The table's files are damaged: restore the file from a"
              + " backup, or read an older snapshot with VERSION AS OF <id> (CALL sys.rollback"
              + " moves the table back to it).",
          e);
    }
    return new BasaltException(
        "Failed to open data file " + path + where + ": " + e.getMessage(), e);
  }

  /** Whether {@code e} was caused by a data file that does not exist. */
  public static boolean missingFile(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.FileNotFoundException) {
        return true;
      }
    }
    return false;
  }
}

package io.basalt.benchmarks;

import java.util.List;
import org.apache.spark.sql.Row;

/** Checks that Basalt's scan returned what Parquet's did, so a fast wrong answer never counts. */
final class ResultCheck {
  /** Sums are compared with this relative tolerance: the addition order differs between scans. */
  private static final double RELATIVE_TOLERANCE = 1e-9;

  private ResultCheck() {}

  /**
   * Compares {@code (cat, count, sum)} rows, both sorted by {@code cat}.
   *
   * @throws IllegalStateException describing the first difference
   */
  static void sameAggregates(List<Row> parquet, List<Row> basalt) {
    if (parquet.size() != basalt.size()) {
      throw new IllegalStateException(
          "Basalt scan returned " + basalt.size() + " groups, Parquet " + parquet.size());
    }
    for (int i = 0; i < parquet.size(); i++) {
      Row expected = parquet.get(i);
      Row actual = basalt.get(i);
      boolean same =
          expected.getInt(0) == actual.getInt(0)
              && expected.getLong(1) == actual.getLong(1)
              && close(expected.getDouble(2), actual.getDouble(2));
      if (!same) {
        throw new IllegalStateException(
            "Basalt scan returned " + actual + " where Parquet returned " + expected);
      }
    }
  }

  private static boolean close(double a, double b) {
    return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
  }

  /**
   * Compares {@code (count, checksum)} rows of {@link #CONTENTS_SQL}: the same rows, with every
   * column, up to a hash collision.
   *
   * @throws IllegalStateException if they differ
   */
  static void sameContents(Row parquet, Row basalt) {
    if (!parquet.equals(basalt)) {
      throw new IllegalStateException(
          "Basalt table has (count, checksum) " + basalt + " where Parquet has " + parquet);
    }
  }

  /**
   * A checksum of a whole table: the row count and the sum of a 64-bit hash of every row (as a
   * decimal, which cannot overflow), independent of row order; {@code %s} is the table or view.
   */
  static final String CONTENTS_SQL =
      "SELECT count(*), sum(CAST(xxhash64(id, cat, name, amount, ts) AS DECIMAL(38, 0))) FROM %s";
}

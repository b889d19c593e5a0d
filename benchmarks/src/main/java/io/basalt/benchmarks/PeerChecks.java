package io.basalt.benchmarks;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * Checks that every system of {@link PeerBenchmark} returned the same rows, so a fast wrong answer
 * never counts.
 */
final class PeerChecks {
  private PeerChecks() {}

  /**
   * Rows as sorted strings: every value the queries return is exact (counts, decimal sums, rows).
   */
  static List<String> canonical(List<Row> rows) {
    return rows.stream().map(Row::toString).sorted().toList();
  }

  /**
   * Compares every system's result with the first system's, and the first column of the first row
   * with {@code expectedCount} unless it is negative.
   *
   * @throws IllegalStateException naming the step, the systems and both results
   */
  static void sameResults(
      String step,
      List<PeerSystem> systems,
      Map<String, List<String>> results,
      long expectedCount) {
    PeerSystem first = systems.get(0);
    List<String> expected = results.get(first.id());
    if (expectedCount >= 0) {
      String count = expected.isEmpty() ? "no rows" : expected.get(0);
      if (!count.startsWith("[" + expectedCount + ",")) {
        throw new IllegalStateException(
            String.format(
                "Step '%s': %s returned %s, expected a count of %d",
                step, first.label(), count, expectedCount));
      }
    }
    if (expected.isEmpty()) {
      throw new IllegalStateException(
          String.format(
              "Step '%s': %s returned no rows; the step checks nothing", step, first.label()));
    }
    for (PeerSystem system : systems) {
      List<String> actual = results.get(system.id());
      if (!expected.equals(actual)) {
        throw new IllegalStateException(
            String.format(
                "Step '%s': %s returned %s where %s returned %s",
                step, system.label(), actual, first.label(), expected));
      }
    }
  }
}

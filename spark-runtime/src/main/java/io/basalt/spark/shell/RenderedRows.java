package io.basalt.spark.shell;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.unsafe.array.ByteArrayMethods;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A result set turned into display strings: column names and one list of cells per row.
 *
 * @param header the column names
 * @param rows the rows, each with exactly one cell per column
 */
record RenderedRows(List<String> header, List<List<String>> rows) {

  /** The most rows Spark's own {@code show()} accepts; a result is never cut below this. */
  private static final int MAX_ROWS = ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH - 1;

  RenderedRows {
    header = List.copyOf(header);
    rows = rows.stream().map(List::copyOf).toList();
  }

  /**
   * Collects {@code result} and renders every value the way {@code Dataset.show()} does: {@code
   * NULL} for nulls (also inside structs and arrays), {@code [a, b]} for arrays, {@code {k -> v}}
   * for maps, {@code {a, b}} for structs, hex for binary, timestamps in the session time zone, and
   * control characters such as newlines and tabs escaped.
   *
   * <p>This calls {@code getRows}, the method {@code show()} itself uses. It is {@code
   * private[sql]} in Scala but public in bytecode; using it keeps the shell's output identical to
   * Spark's for every type, including ones added in later Spark versions, which a hand-written
   * formatter would not. It needs a classic (non-Connect) Dataset, which the shell always has.
   *
   * @throws IllegalArgumentException if {@code result} is not a classic Dataset
   */
  static RenderedRows of(Dataset<Row> result) {
    if (!(result instanceof org.apache.spark.sql.classic.Dataset<Row> classic)) {
      throw new IllegalArgumentException(
          "Cannot render a " + result.getClass().getName() + ": the shell needs classic Spark");
    }
    // truncate = 0 keeps every cell whole; the first row returned is the header
    List<List<String>> lines =
        CollectionConverters.asJava(classic.getRows(MAX_ROWS, 0)).stream()
            .map(CollectionConverters::asJava)
            .toList();
    return new RenderedRows(lines.get(0), lines.subList(1, lines.size()));
  }
}

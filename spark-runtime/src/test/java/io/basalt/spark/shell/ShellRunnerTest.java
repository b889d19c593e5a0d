package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellRunnerTest extends ShellTestBase {

  @Test
  void printsQueryAsTable() {
    int code = runner(OutputFormat.TABLE, false).run(List.of("SELECT 1 AS a, 'xyz' AS bb"));

    assertThat(code).isEqualTo(ShellRunner.SUCCESS);
    assertThat(out())
        .isEqualTo(
            lines(
                "+---+-----+",
                "| a | bb  |",
                "+---+-----+",
                "| 1 | xyz |",
                "+---+-----+",
                "(1 row)"));
    assertThat(err()).isEmpty();
  }

  @Test
  void printsQueryAsTsv() {
    int code =
        runner(OutputFormat.TSV, false)
            .run(List.of("SELECT id AS a, concat('v', id) AS b FROM range(2)"));

    assertThat(code).isEqualTo(ShellRunner.SUCCESS);
    assertThat(out()).isEqualTo(lines("a\tb", "0\tv0", "1\tv1"));
  }

  @Test
  void printsEmptyResultWithHeader() {
    runner(OutputFormat.TABLE, false).run(List.of("SELECT 1 AS a WHERE false"));
    assertThat(out()).isEqualTo(lines("+---+", "| a |", "+---+", "(0 rows)"));
  }

  @Test
  void formatsValuesAsShowDoes() {
    String query =
        "SELECT CAST(NULL AS INT) AS n, array(1, NULL) AS arr, map('k', 1) AS m,"
            + " named_struct('x', 1, 'y', CAST(NULL AS STRING)) AS s, X'0A0B' AS bin,"
            + " TIMESTAMP'2024-01-02 03:04:05' AS ts, 'a\\tb' AS tab";

    runner(OutputFormat.TSV, false).run(List.of(query));

    assertThat(out())
        .isEqualTo(
            lines(
                "n\tarr\tm\ts\tbin\tts\ttab",
                "NULL\t[1, NULL]\t{k -> 1}\t{1, NULL}\t[0A 0B]\t2024-01-02 03:04:05\ta\\tb"));
  }

  @Test
  void printsOkForStatementsWithoutColumnsInTableFormatOnly() {
    runner(OutputFormat.TABLE, false)
        .run(List.of("CREATE TEMPORARY VIEW ok_view AS SELECT 1 AS a"));
    assertThat(out()).isEqualTo(lines("OK"));

    out.reset();
    runner(OutputFormat.TSV, false)
        .run(List.of("CREATE OR REPLACE TEMPORARY VIEW ok_view AS SELECT 2 AS a"));
    assertThat(out()).isEmpty();
  }

  @Test
  void printsExplainOutputAsPlainText() {
    runner(OutputFormat.TABLE, false).run(List.of("EXPLAIN SELECT id FROM range(3)"));

    assertThat(out()).startsWith("== Physical Plan ==" + System.lineSeparator()).contains("Range");
    assertThat(out()).doesNotContain("\\n", "+---");
  }

  @Test
  void stopsAtFirstFailureWithMessageOnly() {
    int code =
        runner(OutputFormat.TSV, false)
            .run(List.of("SELECT 1 AS a", "SELECT * FROM no_such_table", "SELECT 2 AS b"));

    assertThat(code).isEqualTo(ShellRunner.FAILURE);
    assertThat(out()).isEqualTo(lines("a", "1"));
    assertThat(err()).startsWith("Error: ").contains("TABLE_OR_VIEW_NOT_FOUND", "no_such_table");
    assertThat(err()).contains("SQLSTATE: 42P01").doesNotContain("\tat ", "UnresolvedRelation");
  }

  @Test
  void printsStackTraceWhenVerbose() {
    int code = runner(OutputFormat.TABLE, true).run(List.of("SELEC 1"));

    assertThat(code).isEqualTo(ShellRunner.FAILURE);
    assertThat(out()).isEmpty();
    assertThat(err()).startsWith("Error: ").contains("PARSE_SYNTAX_ERROR", "\tat ");
  }

  @Test
  void reportsFailuresRaisedWhileRunningTheQuery() {
    // ANSI mode makes the division fail at execution time, not at analysis time
    int code = runner(OutputFormat.TABLE, false).run(List.of("SELECT 1 / (id - id) FROM range(1)"));

    assertThat(code).isEqualTo(ShellRunner.FAILURE);
    assertThat(err()).startsWith("Error: ").contains("DIVIDE_BY_ZERO");
    // the failed task's stack trace is part of Spark's message; only --verbose shows it
    assertThat(err()).doesNotContain("\tat ", "Driver stacktrace");
  }

  @Test
  void verboseShowsTheTraceOfAFailedTask() {
    int code = runner(OutputFormat.TABLE, true).run(List.of("SELECT 1 / (id - id) FROM range(1)"));

    assertThat(code).isEqualTo(ShellRunner.FAILURE);
    assertThat(err()).contains("DIVIDE_BY_ZERO", "\tat ");
  }

  @Test
  void stackTraceLinesAreCutFromMessages() {
    String message =
        "Job aborted due to stage failure: Lost task 0.0: SparkRuntimeException: key is NULL"
            + "\n\tat org.apache.spark.Foo.bar(Foo.java:1)\n\tat x.y(Z.java:2)"
            + "\nDriver stacktrace:\n\tat a.b(C.java:3)";
    assertThat(ShellRunner.withoutStackTrace(message))
        .isEqualTo(
            "Job aborted due to stage failure: Lost task 0.0: SparkRuntimeException: key is NULL"
                + System.lineSeparator());
    assertThat(ShellRunner.withoutStackTrace("two\nlines")).isEqualTo(lines("two", "lines"));
  }

  private ShellRunner runner(OutputFormat format, boolean verbose) {
    return new ShellRunner(spark, utf8(out), utf8(err), format, verbose);
  }
}

package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.PrintStream;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class InteractiveLoopTest extends ShellTestBase {

  @Test
  void runsStatementsAcrossLinesWithPrompts() {
    int code = run("SELECT 1 AS a,\n'x;' AS b; SELECT\n2 AS c;\nexit\nSELECT 3 AS d;\n", true);

    assertThat(code).isEqualTo(ShellRunner.SUCCESS);
    String p = InteractiveLoop.PROMPT;
    String c = InteractiveLoop.CONTINUATION_PROMPT;
    assertThat(out())
        .isEqualTo(p + c + "a\tb" + nl() + "1\tx;" + nl() + c + "c" + nl() + "2" + nl() + p);
  }

  @Test
  void keepsGoingAfterAFailure() {
    int code = run("SELECT * FROM missing_table;\nSELECT 1 AS a;\n", false);

    assertThat(code).isEqualTo(ShellRunner.SUCCESS);
    assertThat(err()).startsWith("Error: ").contains("missing_table");
    assertThat(out()).isEqualTo(lines("a", "1"));
  }

  @Test
  void runsUnterminatedStatementAtEndOfInput() {
    run("-- comment only;\nSELECT 5 AS e", false);
    assertThat(out()).isEqualTo(lines("e", "5"));
  }

  @Test
  void quitEndsOnlyAtStatementStart() {
    run("SELECT 1 AS\nquit;\nQUIT\nSELECT 2 AS z;\n", false);
    assertThat(out()).isEqualTo(lines("quit", "1"));
  }

  private int run(String input, boolean prompts) {
    PrintStream printOut = utf8(out);
    PrintStream printErr = utf8(err);
    ShellRunner runner = new ShellRunner(spark, printOut, printErr, OutputFormat.TSV, false);
    BufferedReader in = new BufferedReader(new StringReader(input));
    return new InteractiveLoop(in, printOut, runner, prompts).run();
  }

  private static String nl() {
    return System.lineSeparator();
  }
}

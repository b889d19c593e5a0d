package io.basalt.spark.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Set;

/**
 * Reads statements line by line from a reader and runs each as soon as its terminating {@code ;}
 * arrives. {@code exit} or {@code quit} at the start of a statement, or end of input, ends the
 * loop. A failing statement is reported and the loop goes on, as in psql.
 */
final class InteractiveLoop {
  static final String PROMPT = "basalt-sql> ";
  static final String CONTINUATION_PROMPT = "         > ";

  private static final Set<String> EXIT_COMMANDS = Set.of("exit", "quit", "exit;", "quit;");

  private final BufferedReader in;
  private final PrintStream out;
  private final ShellRunner runner;
  private final boolean showPrompts;

  /**
   * @param showPrompts whether to print prompts; off when input is not a terminal, so piped output
   *     holds results only
   */
  InteractiveLoop(BufferedReader in, PrintStream out, ShellRunner runner, boolean showPrompts) {
    this.in = in;
    this.out = out;
    this.runner = runner;
    this.showPrompts = showPrompts;
  }

  /**
   * Runs until exit or end of input. Text left without a terminating {@code ;} at end of input is
   * run as a last statement, as {@code -f} does.
   *
   * @return always {@link ShellRunner#SUCCESS}: failures were reported as they happened
   */
  int run() {
    StringBuilder buffer = new StringBuilder();
    boolean pending = false;
    while (true) {
      prompt(pending ? CONTINUATION_PROMPT : PROMPT);
      String line = readLine();
      if (line == null) {
        SqlSplitter.split(buffer.toString()).forEach(runner::execute);
        return ShellRunner.SUCCESS;
      }
      if (!pending && EXIT_COMMANDS.contains(line.strip().toLowerCase(Locale.ROOT))) {
        return ShellRunner.SUCCESS;
      }
      buffer.append(line).append('\n');
      SqlSplitter.Result result = SqlSplitter.scan(buffer.toString());
      result.statements().forEach(runner::execute);
      pending = result.pending();
      buffer.setLength(0);
      if (pending) {
        buffer.append(result.remainder());
      }
    }
  }

  private void prompt(String text) {
    if (showPrompts) {
      out.print(text);
      out.flush();
    }
  }

  private String readLine() {
    try {
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read from standard input", e);
    }
  }
}

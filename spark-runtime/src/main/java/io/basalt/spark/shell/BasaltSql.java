package io.basalt.spark.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.sql.SparkSession;

/**
 * The {@code basalt-sql} command: a SQL shell over a local Spark session with Basalt's catalog as
 * the default catalog. Run {@code basalt-sql --help} for its options; {@code bin/basalt-sql} starts
 * it with the JVM options Spark needs.
 */
public final class BasaltSql {
  /** Exit code for an invalid command line. */
  static final int USAGE_ERROR = 2;

  private BasaltSql() {}

  /** Runs the shell and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.exit(run(Arrays.asList(args), System.out, System.err));
  }

  /** Runs the shell and returns its exit code; the session is stopped before returning. */
  static int run(List<String> args, PrintStream out, PrintStream err) {
    ShellOptions options;
    try {
      options = ShellOptions.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("Error: " + e.getMessage());
      err.println("Run 'basalt-sql --help' for usage.");
      return USAGE_ERROR;
    }
    if (options.help()) {
      out.print(ShellOptions.USAGE);
      return ShellRunner.SUCCESS;
    }
    List<String> statements;
    try {
      statements = options.interactive() ? List.of() : statements(options);
    } catch (IOException e) {
      err.println("Error: Cannot read SQL file " + options.file() + ": " + e);
      return ShellRunner.FAILURE;
    }
    SparkSession spark;
    try {
      spark = startSession(options);
    } catch (Exception e) {
      // Scala code throws checked exceptions undeclared, so catch them all
      err.println("Error: Cannot start the Spark session: " + e.getMessage());
      if (options.verbose()) {
        e.printStackTrace(err);
      }
      return ShellRunner.FAILURE;
    }
    try {
      ShellRunner runner = new ShellRunner(spark, out, err, options.output(), options.verbose());
      return options.interactive() ? interactive(runner, out) : runner.run(statements);
    } finally {
      spark.stop();
    }
  }

  private static List<String> statements(ShellOptions options) throws IOException {
    String script =
        options.sql() != null
            ? options.sql()
            : Files.readString(Path.of(options.file()), StandardCharsets.UTF_8);
    return SqlSplitter.split(script);
  }

  /** The loggers basalt-sql-log4j2.properties silences because they repeat a task's trace. */
  static final List<String> TASK_FAILURE_LOGGERS =
      List.of("org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager");

  private static SparkSession startSession(ShellOptions options) {
    if (options.verbose()) {
      for (String logger : TASK_FAILURE_LOGGERS) {
        Configurator.setLevel(logger, Level.WARN);
      }
    }
    SparkSession.Builder builder = SparkSession.builder();
    SessionSettings.sessionConf(options).forEach(builder::config);
    return builder.getOrCreate();
  }

  private static int interactive(ShellRunner runner, PrintStream out) {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    // prompts only on a terminal, so piped output holds results only
    return new InteractiveLoop(in, out, runner, System.console() != null).run();
  }
}

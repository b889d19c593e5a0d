package io.basalt.spark.shell;

import java.io.PrintStream;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;

/**
 * Runs SQL statements in a {@link SparkSession} and prints each result: the core of {@code
 * basalt-sql}, independent of argument parsing and of how the session was built.
 *
 * <p>Results go to {@code out}; a failure prints {@code Error: <message>} to {@code err}, followed
 * by the stack trace in verbose mode. Not thread-safe.
 */
public final class ShellRunner {
  /** Exit code when every statement succeeded. */
  public static final int SUCCESS = 0;

  /** Exit code when a statement failed. */
  public static final int FAILURE = 1;

  private final SparkSession spark;
  private final ResultPrinter printer;
  private final PrintStream err;
  private final boolean verbose;

  /**
   * Creates a runner.
   *
   * @param spark the session that runs the statements
   * @param out where results are printed
   * @param err where errors are printed
   * @param format how results are printed
   * @param verbose whether errors include their stack trace
   */
  public ShellRunner(
      SparkSession spark, PrintStream out, PrintStream err, OutputFormat format, boolean verbose) {
    this.spark = spark;
    this.printer = new ResultPrinter(out, format);
    this.err = err;
    this.verbose = verbose;
  }

  /**
   * Runs {@code statements} in order and stops at the first one that fails.
   *
   * @return {@link #SUCCESS} if all statements succeeded, else {@link #FAILURE}
   */
  public int run(List<String> statements) {
    for (String statement : statements) {
      if (!execute(statement)) {
        return FAILURE;
      }
    }
    return SUCCESS;
  }

  /**
   * Runs one statement and prints its result, or its error.
   *
   * @return whether the statement succeeded
   */
  public boolean execute(String statement) {
    try {
      // Spark runs commands (DDL, INSERT) eagerly inside sql(); queries run when rendered
      Dataset<Row> result = spark.sql(statement);
      if (result.schema().isEmpty()) {
        printer.printNoResult();
      } else if (isPlan(result.schema())) {
        printer.printText(result.as(Encoders.STRING()).collectAsList());
      } else {
        printer.print(RenderedRows.of(result));
      }
      return true;
    } catch (Exception e) {
      // Scala code throws checked exceptions such as SparkException undeclared, so catch them all
      reportFailure(e);
      return false;
    }
  }

  /**
   * Whether a result is EXPLAIN output: one string column named {@code plan}. It is printed as
   * plain text because a table would escape its newlines and put the whole plan on one line.
   */
  private static boolean isPlan(StructType schema) {
    return schema.size() == 1
        && schema.fields()[0].name().equals("plan")
        && schema.fields()[0].dataType() instanceof StringType;
  }

  private void reportFailure(Exception e) {
    err.println("Error: " + message(e));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
  }

  private static String message(Exception e) {
    if (e instanceof AnalysisException analysis) {
      // getMessage() appends the logical plan, which is noise for someone typing SQL
      return analysis.getSimpleMessage().stripTrailing();
    }
    // Spark's messages may end in a newline after the SQL excerpt; println adds the last one
    return e.getMessage() != null
        ? withoutStackTrace(e.getMessage()).stripTrailing()
        : e.toString();
  }

  /**
   * The message without the stack trace a failed task puts into it ("Job aborted due to stage
   * failure: ... Lost task ...: SomeException: message" followed by "\tat ..." lines and "Driver
   * stacktrace:"); {@code --verbose} prints the whole exception instead.
   */
  static String withoutStackTrace(String message) {
    StringBuilder kept = new StringBuilder();
    for (String line : message.split("\\R", -1)) {
      String trimmed = line.trim();
      if (trimmed.startsWith("at ") && line.startsWith("\t")
          || trimmed.startsWith("Driver stacktrace:")) {
        break;
      }
      kept.append(line).append(System.lineSeparator());
    }
    return kept.toString();
  }
}

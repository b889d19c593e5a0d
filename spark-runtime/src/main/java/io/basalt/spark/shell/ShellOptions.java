package io.basalt.spark.shell;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The parsed command line of {@code basalt-sql}.
 *
 * @param sql the statements given with {@code -e}, or null
 * @param file the script given with {@code -f}, or null
 * @param warehouse the {@code --warehouse} value as given, or null for the default
 * @param conf the {@code --conf} pairs; when a key repeats, the last value wins
 * @param output the result format
 * @param verbose whether errors print stack traces
 * @param help whether {@code --help} was given
 */
record ShellOptions(
    @Nullable String sql,
    @Nullable String file,
    @Nullable String warehouse,
    Map<String, String> conf,
    OutputFormat output,
    boolean verbose,
    boolean help) {

  static final String USAGE =
      """
      Usage: basalt-sql [options]

      Runs Spark SQL against a local Spark session whose default catalog is Basalt's (`paimon`).

        -e "SQL"            run the given statements (separated by ';') and exit
        -f FILE             run the statements in FILE and exit
                            (neither: read statements from an interactive prompt)
        --warehouse DIR     warehouse of the paimon catalog (default ./warehouse; URIs such as
                            hdfs://... are passed through)
        --conf key=value    set a Spark configuration, overriding the shell's defaults (repeatable)
        --output FORMAT     'table' (default) or 'tsv'
        --verbose           print stack traces of errors
        --help              print this help

      Exit status: 0 on success, 1 when a statement fails, 2 on invalid arguments.
      """;

  ShellOptions {
    conf = Map.copyOf(conf);
  }

  /** Whether statements come from the interactive prompt rather than {@code -e} or {@code -f}. */
  boolean interactive() {
    return sql == null && file == null;
  }

  /**
   * Parses the shell's arguments.
   *
   * @throws IllegalArgumentException naming the offending argument if the command line is invalid
   */
  static ShellOptions parse(List<String> args) {
    Deque<String> queue = new ArrayDeque<>(args);
    String sql = null;
    String file = null;
    String warehouse = null;
    Map<String, String> conf = new HashMap<>();
    OutputFormat output = OutputFormat.TABLE;
    boolean verbose = false;
    boolean help = false;
    while (!queue.isEmpty()) {
      String arg = queue.poll();
      switch (arg) {
        case "-e" -> sql = value(queue, arg);
        case "-f" -> file = value(queue, arg);
        case "--warehouse" -> warehouse = value(queue, arg);
        case "--conf" -> putConf(conf, value(queue, arg));
        case "--output" -> output = OutputFormat.parse(value(queue, arg));
        case "--verbose" -> verbose = true;
        case "-h", "--help" -> help = true;
        default -> throw new IllegalArgumentException("Unknown argument '" + arg + "'");
      }
    }
    if (sql != null && file != null) {
      throw new IllegalArgumentException("Use either -e or -f, not both");
    }
    return new ShellOptions(sql, file, warehouse, conf, output, verbose, help);
  }

  private static String value(Deque<String> queue, String option) {
    String value = queue.poll();
    if (value == null) {
      throw new IllegalArgumentException("Missing value after " + option);
    }
    return value;
  }

  private static void putConf(Map<String, String> conf, String pair) {
    int eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(
          "Invalid value '" + pair + "' for --conf: expected key=value");
    }
    conf.put(pair.substring(0, eq).strip(), pair.substring(eq + 1));
  }
}

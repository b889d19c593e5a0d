package io.basalt.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What the benchmarks' main classes share: the command line, the Spark session, the generated rows,
 * the aggregate query and small file and check helpers.
 */
final class Harness {
  static final String MASTER = "local[2]";
  static final int SHUFFLE_PARTITIONS = 8;

  /** The aggregate every scan phase times; {@code %s} is the table or view. */
  static final String SCAN_SQL =
      "SELECT cat, count(*) AS n, sum(amount) AS total FROM %s GROUP BY cat";

  /** The column list of the generated rows and of every Basalt table, for CREATE TABLE. */
  static final String COLUMNS =
      "(id BIGINT NOT NULL, cat INT, name STRING, amount DOUBLE, ts TIMESTAMP)";

  private Harness() {}

  /** The body of a benchmark: runs with a session whose warehouse is under {@code workDir}. */
  interface Body {
    void run(SparkSession spark, BenchmarkOptions options, Path workDir);
  }

  /**
   * Parses {@code args}, handles {@code --help} and errors (exit status 2), then runs {@code body}
   * in a fresh local session over a temporary directory, which is deleted afterwards.
   */
  static void main(String appName, String[] args, Body body) throws IOException {
    BenchmarkOptions options;
    try {
      options = BenchmarkOptions.parse(Arrays.asList(args));
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.print(BenchmarkOptions.USAGE);
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(BenchmarkOptions.USAGE);
      return;
    }
    Path workDir = Files.createTempDirectory("basalt-bench-");
    try (SparkSession spark = startSession(appName, workDir.resolve("warehouse"))) {
      body.run(spark, options, workDir);
    } finally {
      deleteRecursively(workDir);
    }
  }

  private static SparkSession startSession(String appName, Path warehouse) {
    // the shell's configuration (see BasaltSql) on two cores, so runs are comparable between
    // machines; 8 shuffle partitions instead of 200 keep per-task overhead from dominating
    return SparkSession.builder()
        .master(MASTER)
        .appName(appName)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", String.valueOf(SHUFFLE_PARTITIONS))
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
        .config("spark.sql.catalog.paimon.warehouse", warehouse.toAbsolutePath().toString())
        .config("spark.sql.defaultCatalog", "paimon")
        .config("spark.sql.extensions", "io.basalt.spark.extensions.BasaltSparkSessionExtensions")
        .getOrCreate();
  }

  /**
   * The rows {@code 0 <= id < rows}; every column is a deterministic function of {@code id}, and
   * {@code cat} has 100 values.
   */
  static Dataset<Row> generate(SparkSession spark, long rows) {
    return spark
        .range(rows)
        .selectExpr(
            "id",
            "CAST(id % 100 AS INT) AS cat",
            "concat('name-', id) AS name",
            "CAST((id % 100000) * 7919 % 100000 AS DOUBLE) / 100 AS amount",
            "timestamp_seconds(1700000000 + id % 100000000) AS ts");
  }

  /** Caches {@code rows} and materialises the cache, so later phases do not time generating. */
  static Dataset<Row> cached(Dataset<Row> rows, long expected, String what) {
    Dataset<Row> cached = rows.cache();
    long count = cached.count();
    check(count == expected, "generated %s rows for %s, expected %s", count, what, expected);
    return cached;
  }

  /** Aggregate rows {@code (cat, n, total)} sorted by {@code cat}, as ResultCheck wants them. */
  static List<Row> sorted(List<Row> rows) {
    return rows.stream().sorted(Comparator.comparingInt(row -> row.getInt(0))).toList();
  }

  /** The sum of the counts of aggregate rows {@code (cat, n, total)}. */
  static long totalCount(List<Row> rows) {
    return rows.stream().mapToLong(row -> row.getLong(1)).sum();
  }

  static void check(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new IllegalStateException(String.format(template, args));
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete " + dir, e);
    }
  }
}

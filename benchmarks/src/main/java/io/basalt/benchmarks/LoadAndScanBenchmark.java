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
 * Times loading rows into Basalt and scanning them back, against plain Spark Parquet, in one local
 * Spark session.
 *
 * <p>The source rows {@code (id BIGINT, cat INT, name STRING, amount DOUBLE, ts TIMESTAMP)} are
 * generated from {@code spark.range} and cached first, so both loads time writing only. Phases:
 * {@code df.write.parquet(dir)} against {@code INSERT INTO paimon.bench.t} (a primary-key table
 * with 4 buckets), then {@code SELECT cat, count(*), sum(amount) ... GROUP BY cat} collected on
 * each. Each phase runs warm-ups and then timed repetitions; the report shows medians and the
 * Basalt/Parquet ratios. See {@code benchmarks/README.md}.
 */
public final class LoadAndScanBenchmark {
  static final String MASTER = "local[2]";
  static final int SHUFFLE_PARTITIONS = 8;
  private static final String BASALT_TABLE = "paimon.bench.t";
  private static final String SOURCE_VIEW = "bench_source";
  private static final String PARQUET_VIEW = "bench_parquet";
  private static final String SCAN_SQL =
      "SELECT cat, count(*) AS n, sum(amount) AS total FROM %s GROUP BY cat";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Path parquetDir;
  private final Report report;

  private LoadAndScanBenchmark(SparkSession spark, BenchmarkOptions options, Path workDir) {
    this.spark = spark;
    this.options = options;
    this.parquetDir = workDir.resolve("parquet");
    this.report = new Report(System.out);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
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
    try (SparkSession spark = startSession(workDir.resolve("warehouse"))) {
      new LoadAndScanBenchmark(spark, options, workDir).run();
    } finally {
      deleteRecursively(workDir);
    }
  }

  private static SparkSession startSession(Path warehouse) {
    // the shell's configuration (see BasaltSql) on two cores, so runs are comparable between
    // machines; 8 shuffle partitions instead of 200 keep per-task overhead from dominating
    return SparkSession.builder()
        .master(MASTER)
        .appName("basalt-load-and-scan-benchmark")
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

  private void run() {
    report.header(options, MASTER);
    Dataset<Row> source = generate().cache();
    long generated = source.count();
    check(generated == options.rows(), "generated %s rows, expected %s", generated, options.rows());
    source.createOrReplaceTempView(SOURCE_VIEW);

    Measurement parquetLoad =
        measure("load parquet", () -> deleteRecursively(parquetDir), this::loadParquet);
    Measurement basaltLoad =
        options.parquetOnly() ? null : measure("load basalt", this::createTable, this::loadBasalt);
    Measurement parquetScan = measure("scan parquet", () -> {}, this::scanParquet);
    Measurement basaltScan =
        options.parquetOnly() ? null : measure("scan basalt", () -> {}, this::scanBasalt);

    List<Row> expected = sorted(scanParquet());
    long counted = totalCount(expected);
    check(
        counted == options.rows(),
        "Parquet scan counted %s rows, expected %s",
        counted,
        options.rows());
    if (!options.parquetOnly()) {
      ResultCheck.sameAggregates(expected, sorted(scanBasalt()));
    }
    report.medians(parquetLoad, basaltLoad, parquetScan, basaltScan);
  }

  private Measurement measure(String name, Runnable setup, Runnable action) {
    Measurement m = Measurement.run(name, options.warmups(), options.reps(), setup, action);
    report.samples(m);
    return m;
  }

  /** The source rows; every column is a deterministic function of {@code id}. */
  private Dataset<Row> generate() {
    return spark
        .range(options.rows())
        .selectExpr(
            "id",
            "CAST(id % 100 AS INT) AS cat",
            "concat('name-', id) AS name",
            "CAST((id % 100000) * 7919 % 100000 AS DOUBLE) / 100 AS amount",
            "timestamp_seconds(1700000000 + id % 100000000) AS ts");
  }

  private void loadParquet() {
    spark.table(SOURCE_VIEW).write().parquet(parquetDir.toString());
  }

  private void createTable() {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS paimon.bench");
    spark.sql("DROP TABLE IF EXISTS " + BASALT_TABLE);
    spark.sql(
        "CREATE TABLE "
            + BASALT_TABLE
            + " (id BIGINT NOT NULL, cat INT, name STRING, amount DOUBLE, ts TIMESTAMP)"
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
  }

  private void loadBasalt() {
    spark.sql("INSERT INTO " + BASALT_TABLE + " SELECT * FROM " + SOURCE_VIEW);
  }

  private List<Row> scanParquet() {
    // reading inside the timed run includes file listing and footer reads, as the Basalt scan does
    spark.read().parquet(parquetDir.toString()).createOrReplaceTempView(PARQUET_VIEW);
    return spark.sql(String.format(SCAN_SQL, PARQUET_VIEW)).collectAsList();
  }

  private List<Row> scanBasalt() {
    return spark.sql(String.format(SCAN_SQL, BASALT_TABLE)).collectAsList();
  }

  private static List<Row> sorted(List<Row> rows) {
    return rows.stream().sorted(Comparator.comparingInt(row -> row.getInt(0))).toList();
  }

  private static long totalCount(List<Row> rows) {
    return rows.stream().mapToLong(row -> row.getLong(1)).sum();
  }

  private static void check(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new IllegalStateException(String.format(template, args));
    }
  }

  private static void deleteRecursively(Path dir) {
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

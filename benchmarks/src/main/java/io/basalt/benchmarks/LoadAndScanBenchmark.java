package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
  private static final String BASALT_TABLE = "paimon.bench.t";
  private static final String SOURCE_VIEW = "bench_source";
  private static final String PARQUET_VIEW = "bench_parquet";

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
    Harness.main(
        "basalt-load-and-scan-benchmark",
        args,
        (spark, options, workDir) -> new LoadAndScanBenchmark(spark, options, workDir).run());
  }

  private void run() {
    report.header("LoadAndScanBenchmark", options);
    Harness.cached(Harness.generate(spark, options.rows()), options.rows(), "the source")
        .createOrReplaceTempView(SOURCE_VIEW);

    Measurement parquetLoad =
        measure("load parquet", () -> Harness.deleteRecursively(parquetDir), this::loadParquet);
    Measurement basaltLoad =
        options.parquetOnly() ? null : measure("load basalt", this::createTable, this::loadBasalt);
    Measurement parquetScan = measure("scan parquet", () -> {}, this::scanParquet);
    Measurement basaltScan =
        options.parquetOnly() ? null : measure("scan basalt", () -> {}, this::scanBasalt);

    List<Row> expected = Harness.sorted(scanParquet());
    long counted = Harness.totalCount(expected);
    check(
        counted == options.rows(),
        "Parquet scan counted %s rows, expected %s",
        counted,
        options.rows());
    if (!options.parquetOnly()) {
      ResultCheck.sameAggregates(expected, Harness.sorted(scanBasalt()));
    }
    report.medians(parquetLoad, basaltLoad, parquetScan, basaltScan);
  }

  private Measurement measure(String name, Runnable setup, Runnable action) {
    Measurement m = Measurement.run(name, options.warmups(), options.reps(), setup, action);
    report.samples(m);
    return m;
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
            + " "
            + Harness.COLUMNS
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4')");
  }

  private void loadBasalt() {
    spark.sql("INSERT INTO " + BASALT_TABLE + " SELECT * FROM " + SOURCE_VIEW);
  }

  private List<Row> scanParquet() {
    // reading inside the timed run includes file listing and footer reads, as the Basalt scan does
    spark.read().parquet(parquetDir.toString()).createOrReplaceTempView(PARQUET_VIEW);
    return spark.sql(String.format(Harness.SCAN_SQL, PARQUET_VIEW)).collectAsList();
  }

  private List<Row> scanBasalt() {
    return spark.sql(String.format(Harness.SCAN_SQL, BASALT_TABLE)).collectAsList();
  }
}

package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times a join of two tables bucketed the same way on their key (16 buckets), in one local Spark
 * session: Spark Parquet tables written with {@code CLUSTERED BY (id) SORTED BY (id) INTO 16
 * BUCKETS} (Spark's own bucketed join, no shuffle) against two Basalt primary-key tables with
 * {@code 'bucket' = '16'}, read once with the default layout (Spark shuffles both sides) and once
 * with {@code scan.preserve-data-grouping} (a storage-partitioned join: no shuffle, and no sort
 * when every bucket is one sorted run). Broadcast joins are off, so every run is a sort-merge join.
 *
 * <p>The left table has the N generated rows, the right one every second key. All three runs must
 * return the same count and checksum. See {@code benchmarks/README.md}.
 */
public final class BucketJoinBenchmark {
  private static final int BUCKETS = 16;
  private static final String JOIN =
      "SELECT count(*) AS n, sum(l.amount + r.amount) AS total FROM %s l JOIN %s r ON l.id = r.id";
  private static final String GROUPING = "spark.paimon.scan.preserve-data-grouping";

  /** Targets for Basalt's median time relative to bucketed Parquet's. */
  private static final double SHUFFLED_TARGET = 2.0;

  private static final double GROUPED_TARGET = 1.25;

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Path workDir;
  private final Report report;

  private BucketJoinBenchmark(SparkSession spark, BenchmarkOptions options, Path workDir) {
    this.spark = spark;
    this.options = options;
    this.workDir = workDir;
    this.report = new Report(System.out);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
    Harness.main(
        "basalt-bucket-join-benchmark",
        args,
        (spark, options, workDir) -> new BucketJoinBenchmark(spark, options, workDir).run());
  }

  private void run() {
    report.header("BucketJoinBenchmark", options);
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    long rows = options.rows();
    Harness.cached(Harness.generate(spark, rows), rows, "the source")
        .createOrReplaceTempView("bench_source");
    String right = "SELECT * FROM bench_source WHERE id % 2 = 0";
    createParquet("bench_pl", "SELECT * FROM bench_source");
    createParquet("bench_pr", right);
    if (!options.parquetOnly()) {
      createBasalt("paimon.bench.l", "SELECT * FROM bench_source");
      createBasalt("paimon.bench.r", right);
    }

    String parquetJoin =
        String.format(JOIN, "spark_catalog.default.bench_pl", "spark_catalog.default.bench_pr");
    String basaltJoin = String.format(JOIN, "paimon.bench.l", "paimon.bench.r");
    Measurement parquet = measure("join parquet", parquetJoin, null);
    Row expected = spark.sql(parquetJoin).collectAsList().get(0);
    check(expected.getLong(0) == (rows + 1) / 2, "parquet join returned %s rows", expected);
    List<Report.Comparison> comparisons = new ArrayList<>();
    if (!options.parquetOnly()) {
      Measurement shuffled = measure("join basalt default", basaltJoin, "false");
      verify(basaltJoin, "false", expected);
      Measurement grouped = measure("join basalt grouped", basaltJoin, "true");
      verify(basaltJoin, "true", expected);
      report.line(
          "%ngrouped / default Basalt join time: %.2fx", grouped.median() / shuffled.median());
      comparisons.add(
          new Report.Comparison("join, default layout", parquet, shuffled, SHUFFLED_TARGET));
      comparisons.add(new Report.Comparison("join, grouped", parquet, grouped, GROUPED_TARGET));
    } else {
      comparisons.add(new Report.Comparison("join", parquet, null, GROUPED_TARGET));
    }
    report.comparisons(comparisons);
    spark.conf().unset(GROUPING);
  }

  private void createParquet(String name, String query) {
    Path location = workDir.resolve("parquet").resolve(name);
    spark.sql(
        String.format(
            "CREATE TABLE spark_catalog.default.%s USING parquet CLUSTERED BY (id) SORTED BY (id)"
                + " INTO %d BUCKETS LOCATION '%s' AS %s",
            name, BUCKETS, location.toUri(), query));
  }

  private void createBasalt(String name, String query) {
    spark.sql("CREATE DATABASE IF NOT EXISTS paimon.bench");
    // one commit with full compaction: one sorted run per bucket, as a bucketed Parquet write
    spark.sql(
        String.format(
            "CREATE TABLE %s %s TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '%d',"
                + " 'full-compaction.delta-commits' = '1')",
            name, Harness.COLUMNS, BUCKETS));
    spark.sql(String.format("INSERT INTO %s %s", name, query));
  }

  private Measurement measure(String name, String query, String grouping) {
    Measurement m =
        Measurement.run(
            name,
            options.warmups(),
            options.reps(),
            () -> setGrouping(grouping),
            () -> spark.sql(query).collectAsList());
    report.samples(m);
    return m;
  }

  private void setGrouping(String grouping) {
    if (grouping == null) {
      spark.conf().unset(GROUPING);
    } else {
      spark.conf().set(GROUPING, grouping);
    }
  }

  private void verify(String query, String grouping, Row expected) {
    setGrouping(grouping);
    Row actual = spark.sql(query).collectAsList().get(0);
    check(
        actual.getLong(0) == expected.getLong(0)
            && Math.abs(actual.getDouble(1) - expected.getDouble(1))
                <= 1e-9 * Math.abs(expected.getDouble(1)),
        "Basalt join with %s=%s returned %s, bucketed Parquet %s",
        GROUPING,
        grouping,
        actual,
        expected);
  }
}

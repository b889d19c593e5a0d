package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times full scans of ORC data: Spark's own ORC source over files Spark wrote, against a Basalt
 * append table of ORC files holding the same rows, read columnar (orc-core's vectorized reader)
 * and, for reference, as rows ({@code spark.sql.orc.enableVectorizedReader=false} turns both
 * columnar paths off, so Spark's ORC source is not timed then).
 *
 * <p>Two queries per system, each collected: every column of every row ({@code count} of a row hash
 * over all columns, so no column is pruned) and the aggregate of {@link Harness#SCAN_SQL}. Runs of
 * Spark ORC and Basalt alternate ({@link Measurement#interleaved}); the report gives medians and
 * the Basalt/ORC ratios.
 */
public final class OrcScanBenchmark {
  private static final String BASALT_TABLE = "paimon.bench.orc_t";
  private static final String SOURCE_VIEW = "bench_source";
  private static final String ORC_VIEW = "bench_orc";
  private static final String FULL_SQL =
      "SELECT count(*), sum(hash(id, cat, name, amount, ts)) FROM %s";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Path orcDir;
  private final Report report;

  private OrcScanBenchmark(SparkSession spark, BenchmarkOptions options, Path workDir) {
    this.spark = spark;
    this.options = options;
    this.orcDir = workDir.resolve("orc");
    this.report = new Report(System.out);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
    Harness.main(
        "basalt-orc-scan-benchmark",
        args,
        (spark, options, workDir) -> new OrcScanBenchmark(spark, options, workDir).run());
  }

  private void run() {
    report.header("OrcScanBenchmark", options);
    Harness.cached(Harness.generate(spark, options.rows()), options.rows(), "the source")
        .createOrReplaceTempView(SOURCE_VIEW);
    spark.table(SOURCE_VIEW).write().orc(orcDir.toString());
    spark.sql("CREATE NAMESPACE IF NOT EXISTS paimon.bench");
    spark.sql(
        "CREATE TABLE "
            + BASALT_TABLE
            + " "
            + Harness.COLUMNS
            + " TBLPROPERTIES ('file.format' = 'orc')");
    spark.sql("INSERT INTO " + BASALT_TABLE + " SELECT * FROM " + SOURCE_VIEW);

    for (String query : List.of(FULL_SQL, Harness.SCAN_SQL)) {
      String name = query.equals(FULL_SQL) ? "full scan" : "aggregate";
      if (query.equals(FULL_SQL)) {
        check(
            orc(query).equals(basalt(query)),
            "Basalt and Spark ORC disagree on the full scan: %s, %s",
            orc(query),
            basalt(query));
      } else {
        ResultCheck.sameAggregates(Harness.sorted(orc(query)), Harness.sorted(basalt(query)));
      }
      List<Measurement> pair =
          Measurement.interleaved(
              options.warmups(),
              options.reps(),
              "orc " + name,
              () -> {},
              () -> orc(query),
              "basalt " + name,
              () -> {},
              () -> basalt(query));
      pair.forEach(report::samples);
      spark.conf().set("spark.sql.orc.enableVectorizedReader", "false");
      Measurement rows =
          Measurement.run(
              "basalt rows " + name,
              options.warmups(),
              options.reps(),
              () -> {},
              () -> basalt(query));
      spark.conf().unset("spark.sql.orc.enableVectorizedReader");
      report.samples(rows);
      double orc = pair.get(0).median();
      report.line(
          "%-10s spark orc %.1f ms, basalt columnar %.1f ms (%.2fx), basalt rows %.1f ms (%.2fx)",
          name,
          orc,
          pair.get(1).median(),
          pair.get(1).median() / orc,
          rows.median(),
          rows.median() / orc);
    }
  }

  private List<Row> orc(String query) {
    // reading inside the timed run includes file listing and footer reads, as the Basalt scan does
    spark.read().orc(orcDir.toString()).createOrReplaceTempView(ORC_VIEW);
    return spark.sql(String.format(Locale.ROOT, query, ORC_VIEW)).collectAsList();
  }

  private List<Row> basalt(String query) {
    return spark.sql(String.format(Locale.ROOT, query, BASALT_TABLE)).collectAsList();
  }
}

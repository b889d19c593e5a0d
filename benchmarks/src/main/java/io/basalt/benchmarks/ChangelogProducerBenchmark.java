package io.basalt.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The write cost of the {@code full-compaction} changelog producer against {@code none}: a table
 * loaded with N rows (untimed), then {@code --rounds} upsert commits of N/10 updated keys each,
 * timed one by one; the report gives each side's median and the ratio. Then the cost of a full
 * compaction itself: the same rounds on {@code write-only} tables, and {@code CALL sys.compact}
 * timed, with and without the changelog. Both sides run in the same session, interleaved per
 * round. The final rows of both tables are compared, or the run fails.
 */
public final class ChangelogProducerBenchmark {
  private static final String NONE = "paimon.bench.cl_none";
  private static final String FULL = "paimon.bench.cl_full";
  private static final String SOURCE_VIEW = "bench_source";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Report report;

  private ChangelogProducerBenchmark(SparkSession spark, BenchmarkOptions options) {
    this.spark = spark;
    this.options = options;
    this.report = new Report(System.out);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws Exception {
    Harness.main(
        "basalt-changelog-benchmark",
        args,
        (spark, options, workDir) -> new ChangelogProducerBenchmark(spark, options).run(workDir));
  }

  private void run(Path workDir) {
    report.header("ChangelogProducerBenchmark", options);
    Harness.cached(Harness.generate(spark, options.rows()), options.rows(), "the source")
        .createOrReplaceTempView(SOURCE_VIEW);
    report.line(
        "%n1. %d upsert commit(s) of %,d updated keys: 'none' vs 'full-compaction' (a full"
            + " compaction at every commit, Paimon's default)",
        options.rounds(), options.rows() / 10);
    upserts("", "upsert");
    report.line(
        "%n2. the same commits with 'write-only' = 'true', then CALL sys.compact (a full"
            + " compaction of %,d rows and %d upserted runs)",
        options.rows(), options.rounds());
    upserts(", 'write-only' = 'true'", "upsert write-only");
    Measurement none = Measurement.run("compact none", 0, 1, () -> {}, () -> compact(NONE));
    Measurement full = Measurement.run("compact full", 0, 1, () -> {}, () -> compact(FULL));
    report.samples(none);
    report.samples(full);
    report.line("   full compaction ratio full-compaction / none: %.2f", full.median() / none.median());
    check();
  }

  /** Loads both tables, then times each round's commit on both, interleaved. */
  private void upserts(String extra, String what) {
    createTable(NONE, extra);
    createTable(FULL, extra + ", 'changelog-producer' = 'full-compaction'");
    List<Double> none = new ArrayList<>();
    List<Double> full = new ArrayList<>();
    for (int round = 1; round <= options.rounds(); round++) {
      Dataset<Row> batch = batch(round).cache();
      batch.count();
      batch.createOrReplaceTempView("bench_batch");
      none.add(Measurement.timed(() -> {}, () -> upsert(NONE)));
      full.add(Measurement.timed(() -> {}, () -> upsert(FULL)));
      batch.unpersist();
    }
    Measurement n = new Measurement(what + " none", none);
    Measurement f = new Measurement(what + " full-compaction", full);
    report.samples(n);
    report.samples(f);
    report.line("   median ratio full-compaction / none: %.2f", f.median() / n.median());
  }

  /** Round {@code round}'s batch: every tenth original key, shifted by the round, new values. */
  private Dataset<Row> batch(int round) {
    return spark
        .range(round - 1, options.rows(), 10)
        .selectExpr(
            "id",
            String.format("CAST((id + %d) %% 100 AS INT) AS cat", round),
            String.format("concat('name-', id, '-r%d') AS name", round),
            String.format("CAST((id * 31 + %d) %% 100000 AS DOUBLE) / 100 AS amount", round),
            String.format("timestamp_seconds(1700000000 + id %% 100000000 + %d) AS ts", round));
  }

  private void upsert(String table) {
    spark.sql("INSERT INTO " + table + " SELECT * FROM bench_batch");
  }

  private void compact(String table) {
    spark.sql("CALL sys.compact(table => '" + table.substring("paimon.".length()) + "')");
  }

  private void createTable(String name, String extra) {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS paimon.bench");
    spark.sql("DROP TABLE IF EXISTS " + name);
    spark.sql(
        "CREATE TABLE "
            + name
            + " "
            + Harness.COLUMNS
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4'"
            + extra
            + ")");
    spark.sql("INSERT INTO " + name + " SELECT * FROM " + SOURCE_VIEW);
  }

  private void check() {
    List<Row> none = Harness.sorted(spark.sql(String.format(Harness.SCAN_SQL, NONE)).collectAsList());
    List<Row> full = Harness.sorted(spark.sql(String.format(Harness.SCAN_SQL, FULL)).collectAsList());
    Harness.check(none.equals(full), "the two tables differ: %s vs %s", none, full);
    Row last =
        spark
            .sql(
                "SELECT commit_kind, changelog_record_count FROM paimon.bench.`cl_full$snapshots`"
                    + " ORDER BY snapshot_id DESC LIMIT 1")
            .first();
    report.line(
        "   checked: same aggregate; the last snapshot (%s) holds %,d changelog rows",
        last.getString(0), last.getLong(1));
  }
}

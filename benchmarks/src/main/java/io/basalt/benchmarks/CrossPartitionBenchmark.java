package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Times the cost of a cross-partition upsert table's key lookup: one upsert of N/10 rows, a fifth
 * of whose keys move to another partition, into a table of N rows keyed by {@code id} alone (a
 * cross-partition upsert table: the write joins its rows with every key of the table), against the
 * same upsert into the same table keyed by {@code (dt, id)} (the HASH index alone; there the moving
 * rows become new keys). Both tables are dynamic-bucket tables over 10 partitions, dropped, created
 * and loaded untimed before every run; runs alternate between the two. See {@code
 * benchmarks/README.md}.
 */
public final class CrossPartitionBenchmark {
  private static final int PARTITIONS = 10;
  private static final String COLUMNS =
      "(id BIGINT NOT NULL, dt STRING, name STRING, amount DOUBLE)";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Report report;

  private CrossPartitionBenchmark(SparkSession spark, BenchmarkOptions options) {
    this.spark = spark;
    this.options = options;
    this.report = new Report(System.out);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws java.io.IOException {
    Harness.main(
        "basalt-cross-partition-benchmark",
        args,
        (spark, options, workDir) -> new CrossPartitionBenchmark(spark, options).run());
  }

  private void run() {
    report.header("CrossPartitionBenchmark", options);
    long rows = options.rows();
    spark.sql("CREATE DATABASE IF NOT EXISTS paimon.bench");
    Harness.cached(
            spark
                .range(rows)
                .selectExpr(
                    "id",
                    "concat('p', id % " + PARTITIONS + ") AS dt",
                    "concat('name-', id) AS name",
                    "CAST(id AS DOUBLE) AS amount"),
            rows,
            "the table")
        .createOrReplaceTempView("bench_base");
    // every 10th key; keys with (id / 10) % 5 = 0 (a fifth of them) move to the next partition
    long upserts = (rows + 6) / 10;
    Harness.cached(
            spark.sql(
                "SELECT id, IF((id DIV 10) % 5 = 0, concat('p', (id + 1) % "
                    + PARTITIONS
                    + "), dt) AS dt, concat('new-', id) AS name, amount + 1 AS amount"
                    + " FROM bench_base WHERE id % 10 = 3"),
            upserts,
            "the upsert")
        .createOrReplaceTempView("bench_upsert");
    report.line("table rows: %d, upsert rows: %d (a fifth move partition)", rows, upserts);

    List<Measurement> measured =
        Measurement.interleaved(
            options.warmups(),
            options.reps(),
            "upsert, key (dt, id)",
            () -> load("paimon.bench.keyed", "dt,id"),
            () -> spark.sql("INSERT INTO paimon.bench.keyed SELECT * FROM bench_upsert"),
            "upsert, key id (cross-partition)",
            () -> load("paimon.bench.cross", "id"),
            () -> spark.sql("INSERT INTO paimon.bench.cross SELECT * FROM bench_upsert"));
    measured.forEach(report::samples);
    verify(rows, upserts);
    report.line(
        "%ncross-partition / partition-keyed upsert time: %.2fx",
        measured.get(1).median() / measured.get(0).median());
  }

  private void load(String table, String key) {
    spark.sql("DROP TABLE IF EXISTS " + table);
    spark.sql(
        String.format(
            "CREATE TABLE %s %s PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = '%s')",
            table, COLUMNS, key));
    spark.sql(String.format("INSERT INTO %s SELECT * FROM bench_base", table));
  }

  private void verify(long rows, long upserts) {
    Row cross =
        spark
            .sql(
                "SELECT count(*), count(DISTINCT id), count_if(name LIKE 'new-%') FROM"
                    + " paimon.bench.cross")
            .collectAsList()
            .get(0);
    check(
        cross.getLong(0) == rows && cross.getLong(1) == rows && cross.getLong(2) == upserts,
        "cross-partition table has %s rows, %s keys, %s upserted; expected %s, %s, %s",
        cross.getLong(0),
        cross.getLong(1),
        cross.getLong(2),
        rows,
        rows,
        upserts);
  }
}

package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * The write cost of a changelog producer against {@code none}, in one local Spark session: per
 * producer, a primary-key table (4 buckets) is loaded with N rows, then {@code --rounds} upsert
 * commits each update N/10 existing keys (other keys each round, new values); the report gives each
 * commit's time and their median per producer, and the ratio of the medians. Producers alternate
 * round by round so that a slow moment of the machine hits both. The tables' contents are checked
 * against each other at the end.
 */
public final class ChangelogWriteBenchmark {
  private static final List<String> PRODUCERS = List.of("none", "lookup");

  private ChangelogWriteBenchmark() {}

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
    Harness.main("basalt-changelog-write-benchmark", args, ChangelogWriteBenchmark::run);
  }

  private static void run(SparkSession spark, BenchmarkOptions options, Path workDir) {
    long rows = options.rows();
    Harness.cached(Harness.generate(spark, rows), rows, "the source")
        .createOrReplaceTempView("bench_source");
    spark.sql("CREATE DATABASE IF NOT EXISTS bench");
    System.out.printf(
        "ChangelogWriteBenchmark: %,d rows, %d upsert commits of %,d rows each%n",
        rows, options.rounds(), rows / 10);
    for (String producer : PRODUCERS) {
      String table = table(producer);
      spark.sql(
          String.format(
              "CREATE TABLE %s %s TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4',"
                  + " 'changelog-producer' = '%s')",
              table, Harness.COLUMNS, producer));
      double load =
          Measurement.timed(
              () -> {}, () -> spark.sql("INSERT INTO " + table + " SELECT * FROM bench_source"));
      System.out.printf(Locale.ROOT, "load %-8s %10.0f ms%n", producer, load);
    }
    List<List<Double>> commits = new ArrayList<>();
    PRODUCERS.forEach(p -> commits.add(new ArrayList<>()));
    for (int round = 0; round < options.rounds(); round++) {
      int r = round;
      for (int i = 0; i < PRODUCERS.size(); i++) {
        String producer = PRODUCERS.get(i);
        double millis = Measurement.timed(() -> {}, () -> upsert(spark, table(producer), r));
        commits.get(i).add(millis);
        System.out.printf(Locale.ROOT, "upsert %d %-8s %10.0f ms%n", r + 1, producer, millis);
      }
    }
    double base = median(commits.get(0));
    for (int i = 0; i < PRODUCERS.size(); i++) {
      double median = median(commits.get(i));
      System.out.printf(
          Locale.ROOT,
          "median upsert commit %-8s %10.0f ms   ratio to none %.2f%n",
          PRODUCERS.get(i),
          median,
          median / base);
    }
    String first = checksum(spark, table(PRODUCERS.get(0)));
    for (String producer : PRODUCERS) {
      check(
          first.equals(checksum(spark, table(producer))),
          "table %s differs from %s",
          table(producer),
          table(PRODUCERS.get(0)));
    }
  }

  private static String table(String producer) {
    return "paimon.bench.t_" + producer;
  }

  /** Updates the keys {@code id % 10 == round}: a tenth of the table, new values in every column. */
  private static void upsert(SparkSession spark, String table, int round) {
    spark.sql(
        String.format(
            "INSERT INTO %s SELECT id, cat, concat(name, '-r%d'), amount + %d, ts FROM"
                + " bench_source WHERE id %% 10 = %d",
            table, round, round + 1, round % 10));
  }

  private static String checksum(SparkSession spark, String table) {
    return spark
        .sql("SELECT count(*), sum(hash(id, cat, name, amount, ts)) FROM " + table)
        .collectAsList()
        .get(0)
        .toString();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}

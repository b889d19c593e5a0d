package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The write cost of each changelog producer, as a ratio against the first producer given (normally
 * {@code none}), on the upsert data of {@link UpsertBenchmark}: a table loaded with N generated
 * rows (untimed) takes one upsert batch of 10% updated and 2% new keys by {@code INSERT INTO},
 * which is timed. Producers run round-robin (one run of each, then the next repetition), so drift
 * on a shared machine affects them alike; each run starts from a freshly loaded table. Besides the
 * times, the report gives the bytes the upsert commit wrote (data and changelog files), which do
 * not depend on the machine.
 */
public final class ChangelogBenchmark {
  private static final String SOURCE_VIEW = "bench_source";
  private static final String BATCH_VIEW = "bench_batch";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Path warehouse;
  private final Report report;
  private final long rows;

  private ChangelogBenchmark(SparkSession spark, BenchmarkOptions options, Path workDir) {
    this.spark = spark;
    this.options = options;
    this.warehouse = workDir.resolve("warehouse");
    this.report = new Report(System.out);
    this.rows = options.rows();
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
    Harness.main(
        "basalt-changelog-benchmark",
        args,
        (spark, options, workDir) -> new ChangelogBenchmark(spark, options, workDir).run());
  }

  private static String table(String producer) {
    return "paimon.bench.cl_" + producer.replace('-', '_');
  }

  private void run() {
    report.header("ChangelogBenchmark", options);
    long updated = (rows + 9) / 10;
    long added = rows / 50;
    report.line(
        "The upsert writes %,d rows (%,d updated keys, %,d new keys) into a table of %,d rows;"
            + " producers: %s.",
        updated + added, updated, added, rows, String.join(", ", options.producers()));
    Harness.cached(Harness.generate(spark, rows), rows, "the source")
        .createOrReplaceTempView(SOURCE_VIEW);
    Dataset<Row> batch =
        spark
            .range(0, rows, 10)
            .union(spark.range(rows, rows + added))
            .selectExpr(
                "id",
                "CAST((id + 1) % 100 AS INT) AS cat",
                "concat('name-', id, '-r1') AS name",
                "CAST((id * 31 + 1) % 100000 AS DOUBLE) / 100 AS amount",
                "timestamp_seconds(1700000001 + id % 100000000) AS ts");
    Harness.cached(batch, updated + added, "the upsert batch").createOrReplaceTempView(BATCH_VIEW);

    List<String> producers = options.producers();
    List<List<Double>> millis = new ArrayList<>();
    long[] bytes = new long[producers.size()];
    for (int i = 0; i < producers.size(); i++) {
      millis.add(new ArrayList<>());
    }
    for (int rep = -options.warmups(); rep < options.reps(); rep++) {
      for (int i = 0; i < producers.size(); i++) {
        String producer = producers.get(i);
        load(producer);
        long before = bytesUnder(producer);
        double ms = Measurement.timed(() -> {}, () -> upsert(producer));
        bytes[i] = bytesUnder(producer) - before;
        verify(producer, rows + added);
        if (rep >= 0) {
          millis.get(i).add(ms);
        }
      }
    }
    Measurement baseline = new Measurement(producers.get(0), millis.get(0));
    report.line(
        "%n%-18s %12s %8s %16s %8s", "producer", "median ms", "ratio", "bytes written", "ratio");
    for (int i = 0; i < producers.size(); i++) {
      Measurement m = new Measurement(producers.get(i), millis.get(i));
      report.line(
          "%-18s %12.1f %8.2f %,16d %8.2f   (runs: %s)",
          producers.get(i),
          m.median(),
          m.median() / baseline.median(),
          bytes[i],
          (double) bytes[i] / bytes[0],
          m.samples());
    }
  }

  /** Drops and creates the producer's table and loads the source rows into it, untimed. */
  private void load(String producer) {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS paimon.bench");
    spark.sql("DROP TABLE IF EXISTS " + table(producer));
    spark.sql(
        String.format(
            Locale.ROOT,
            "CREATE TABLE %s %s TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '4',"
                + " 'changelog-producer' = '%s')",
            table(producer),
            Harness.COLUMNS,
            producer));
    spark.sql("INSERT INTO " + table(producer) + " SELECT * FROM " + SOURCE_VIEW);
  }

  private void upsert(String producer) {
    spark.sql("INSERT INTO " + table(producer) + " SELECT * FROM " + BATCH_VIEW);
  }

  private void verify(String producer, long expected) {
    long count = spark.table(table(producer)).count();
    check(count == expected, "table of '%s' holds %s rows, expected %s", producer, count, expected);
  }

  /** The bytes of the Parquet files (data and changelog) under the producer's table. */
  private long bytesUnder(String producer) {
    Path dir = warehouse.resolve("bench.db").resolve("cl_" + producer.replace('-', '_'));
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException("Failed to size " + p, e);
                }
              })
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + dir, e);
    }
  }
}

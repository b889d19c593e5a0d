package io.basalt.benchmarks;

import static io.basalt.benchmarks.Harness.check;

import io.basalt.spark.SparkCatalog;
import io.basalt.spark.SparkTable;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * Times the primary-key workload Basalt exists for, against plain Spark Parquet, in one local Spark
 * session: scanning a compacted table, upserting a batch, and scanning after several upserts.
 *
 * <p>Every phase starts from the same N generated rows (see {@link Harness#generate}). A round's
 * batch updates 10% of the original keys (different keys each round, with new values in every
 * column) and adds 2% new keys. Basalt upserts with {@code INSERT INTO}; plain Parquet has no keys,
 * so it reads the table, drops the rows whose key is in the batch (left anti join), appends the
 * batch and writes the whole table to a new directory. Phases:
 *
 * <ol>
 *   <li>{@code scan compacted}: the aggregate of {@link Harness#SCAN_SQL} on a table created with
 *       {@code 'full-compaction.delta-commits' = '1'}, so the load leaves one sorted run per bucket
 *       at the top level, against the same aggregate on the Parquet copy;
 *   <li>{@code upsert round}: round 1 on a freshly loaded table with default options, against the
 *       Parquet rewrite; the table is dropped and loaded again, untimed, before every run;
 *   <li>{@code scan after R rounds}: rounds 2 to R continue on that table (merge-on-read, with the
 *       writers' automatic minor compaction) and on the Parquet copy, then both are scanned.
 * </ol>
 *
 * After each phase the two sides must agree: the same aggregate and the same row checksum, or the
 * run fails. See {@code benchmarks/README.md}.
 */
public final class UpsertBenchmark {
  private static final String COMPACTED_TABLE = "paimon.bench.compacted";
  private static final String TABLE = "paimon.bench.t";
  private static final String SOURCE_VIEW = "bench_source";
  private static final String BATCH_VIEW = UpsertBatches.VIEW;
  private static final String PARQUET_VIEW = "bench_parquet";
  private static final String PREVIOUS_VIEW = "bench_previous";

  /** Targets for Basalt's median time relative to Parquet's, per phase. */
  private static final double SCAN_COMPACTED_TARGET = 1.25;

  private static final double UPSERT_TARGET = 0.5;
  private static final double SCAN_AFTER_ROUNDS_TARGET = 1.5;

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final Path parquetRoot;
  private final Report report;
  private final long rows;
  private final UpsertBatches batches;

  private UpsertBenchmark(SparkSession spark, BenchmarkOptions options, Path workDir) {
    this.spark = spark;
    this.options = options;
    this.parquetRoot = workDir.resolve("parquet");
    this.report = new Report(System.out);
    this.rows = options.rows();
    this.batches = new UpsertBatches(spark, rows);
  }

  /** Runs the benchmark; see {@link BenchmarkOptions#USAGE} for the arguments. */
  public static void main(String[] args) throws IOException {
    Harness.main(
        "basalt-upsert-benchmark",
        args,
        (spark, options, workDir) -> new UpsertBenchmark(spark, options, workDir).run());
  }

  private boolean basalt() {
    return !options.parquetOnly();
  }

  private void run() {
    report.header("UpsertBenchmark", options);
    report.line(
        "Each round upserts %,d rows: %,d updated keys (10%%) + %,d new keys (2%%); %d round(s)"
            + " before the last scan.",
        batches.updatedKeys(1) + batches.newKeys(),
        batches.updatedKeys(1),
        batches.newKeys(),
        options.rounds());
    Harness.cached(Harness.generate(spark, rows), rows, "the source")
        .createOrReplaceTempView(SOURCE_VIEW);
    spark.table(SOURCE_VIEW).write().parquet(parquetDir(0).toString());

    List<Report.Comparison> comparisons = new ArrayList<>();
    comparisons.add(scanCompacted());
    comparisons.add(upsertRound());
    comparisons.add(scanAfterRounds());
    report.comparisons(comparisons);
  }

  /** Phase 1: the aggregate on a fully compacted table and on the Parquet copy. */
  private Report.Comparison scanCompacted() {
    report.line("%n1. scan of a compacted table (%,d rows)", rows);
    if (basalt()) {
      createTable(COMPACTED_TABLE, ", 'full-compaction.delta-commits' = '1'");
      spark.sql("INSERT INTO " + COMPACTED_TABLE + " SELECT * FROM " + SOURCE_VIEW);
    }
    layout(COMPACTED_TABLE);
    // the first phase in a fresh JVM: two more warm-ups, or it would time the JIT compiler
    Measurement[] m =
        compare(
            options.warmups() + 2,
            "scan",
            () -> {},
            () -> scanParquet(0),
            () -> {},
            () -> scanBasalt(COMPACTED_TABLE));
    Measurement parquet = m[0];
    Measurement basalt = m[1];
    verify(0, COMPACTED_TABLE);
    if (basalt()) {
      spark.sql("DROP TABLE " + COMPACTED_TABLE);
    }
    return new Report.Comparison("scan compacted", parquet, basalt, SCAN_COMPACTED_TARGET);
  }

  /**
   * Phase 2: round 1 from the freshly loaded rows. Leaves the Basalt table and the Parquet copy
   * after round 1 for phase 3.
   */
  private Report.Comparison upsertRound() {
    report.line(
        "%n2. upsert round 1 (Basalt: INSERT INTO a freshly loaded table with default options;"
            + " Parquet: rewrite)");
    Dataset<Row> batch = batches.cache(1);
    Measurement[] m =
        compare(
            options.warmups(),
            "upsert",
            () -> Harness.deleteRecursively(parquetDir(1)),
            () -> upsertParquet(1),
            this::loadTable,
            this::upsertBasalt);
    Measurement parquet = m[0];
    Measurement basalt = m[1];
    batch.unpersist();
    verify(1, TABLE);
    return new Report.Comparison("upsert round", parquet, basalt, UPSERT_TARGET);
  }

  /** Phase 3: rounds 2 to R, each timed once (for information), then the aggregate. */
  private Report.Comparison scanAfterRounds() {
    int rounds = options.rounds();
    report.line("%n3. scan after %d upsert round(s) (Basalt: default options)", rounds);
    if (rounds > 1) {
      List<Double> parquetMillis = new ArrayList<>();
      List<Double> basaltMillis = new ArrayList<>();
      for (int round = 2; round <= rounds; round++) {
        int r = round;
        Dataset<Row> batch = batches.cache(r);
        parquetMillis.add(timeOnce(() -> upsertParquet(r)));
        Harness.deleteRecursively(parquetDir(r - 1));
        if (basalt()) {
          basaltMillis.add(timeOnce(this::upsertBasalt));
        }
        batch.unpersist();
      }
      // one run per round, not repetitions: the table grows and compacts from round to round
      String name = rounds == 2 ? "round 2" : "rounds 2-" + rounds;
      report.samples(new Measurement(name + " parquet", parquetMillis));
      if (basalt()) {
        report.samples(new Measurement(name + " basalt", basaltMillis));
      }
    }
    layout(TABLE);
    Measurement[] m =
        compare(
            options.warmups(),
            "scan",
            () -> {},
            () -> scanParquet(rounds),
            () -> {},
            () -> scanBasalt(TABLE));
    Measurement parquet = m[0];
    Measurement basalt = m[1];
    verify(rounds, TABLE);
    return new Report.Comparison(
        "scan after " + rounds + " round" + (rounds == 1 ? "" : "s"),
        parquet,
        basalt,
        SCAN_AFTER_ROUNDS_TARGET);
  }

  /**
   * Times the Parquet and the Basalt side of a phase, interleaved, and prints their runs; Basalt's
   * measurement is null in Parquet-only runs.
   */
  private Measurement[] compare(
      int warmups,
      String what,
      Runnable parquetSetup,
      Runnable parquetAction,
      Runnable basaltSetup,
      Runnable basaltAction) {
    Measurement parquet;
    Measurement basalt = null;
    if (basalt()) {
      List<Measurement> both =
          Measurement.interleaved(
              warmups,
              options.reps(),
              what + " parquet",
              parquetSetup,
              parquetAction,
              what + " basalt",
              basaltSetup,
              basaltAction);
      parquet = both.get(0);
      basalt = both.get(1);
    } else {
      parquet =
          Measurement.run(what + " parquet", warmups, options.reps(), parquetSetup, parquetAction);
    }
    report.samples(parquet);
    if (basalt != null) {
      report.samples(basalt);
    }
    return new Measurement[] {parquet, basalt};
  }

  private static double timeOnce(Runnable action) {
    return Measurement.timed(() -> {}, action);
  }

  /**
   * Prints how the table is laid out in its latest snapshot: per bucket, the files and the sorted
   * runs a read merges (each level-0 file is one run, each higher level one), and how many buckets
   * read without merging.
   */
  private void layout(String table) {
    if (!basalt()) {
      return;
    }
    try {
      SparkCatalog catalog = (SparkCatalog) spark.sessionState().catalogManager().catalog("paimon");
      String[] parts = table.split("\\.");
      FileStoreTable store =
          ((SparkTable) catalog.loadTable(Identifier.of(new String[] {parts[1]}, parts[2])))
              .fileStoreTable();
      List<String> buckets = new ArrayList<>();
      int raw = 0;
      List<DataSplit> splits = new ArrayList<>(store.newScan().plan().splits());
      splits.sort(Comparator.comparingInt(DataSplit::bucket));
      for (DataSplit split : splits) {
        long levelZero = split.files().stream().filter(f -> f.level() == 0).count();
        long higher =
            split.files().stream()
                .filter(f -> f.level() > 0)
                .map(f -> f.level())
                .distinct()
                .count();
        buckets.add(
            String.format(
                "bucket %d: %d run(s) in %d file(s)",
                split.bucket(), levelZero + higher, split.files().size()));
        raw += split.rawConvertible() ? 1 : 0;
      }
      report.line(
          "  layout: %s; %d of %d bucket(s) read without merging",
          String.join("; ", buckets), raw, buckets.size());
    } catch (NoSuchTableException e) {
      throw new IllegalStateException(e);
    }
  }

  private Path parquetDir(int round) {
    return parquetRoot.resolve(round == 0 ? "base" : "round-" + round);
  }

  /**
   * What an upsert costs without keys: read the previous version, keep the rows whose key is not in
   * the batch, add the batch, and write the whole table to a new directory.
   */
  private void upsertParquet(int round) {
    spark.read().parquet(parquetDir(round - 1).toString()).createOrReplaceTempView(PREVIOUS_VIEW);
    spark
        .sql(
            "SELECT p.* FROM "
                + PREVIOUS_VIEW
                + " p LEFT ANTI JOIN "
                + BATCH_VIEW
                + " b ON p.id = b.id UNION ALL SELECT * FROM "
                + BATCH_VIEW)
        .write()
        .parquet(parquetDir(round).toString());
  }

  private void upsertBasalt() {
    spark.sql("INSERT INTO " + TABLE + " SELECT * FROM " + BATCH_VIEW);
  }

  /** Drops and creates the default-options table and loads the original rows into it. */
  private void loadTable() {
    createTable(TABLE, "");
    spark.sql("INSERT INTO " + TABLE + " SELECT * FROM " + SOURCE_VIEW);
  }

  private void createTable(String name, String extraProperties) {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS paimon.bench");
    spark.sql("DROP TABLE IF EXISTS " + name);
    spark.sql(
        "CREATE TABLE "
            + name
            + " "
            + Harness.COLUMNS
            + " TBLPROPERTIES ('primary-key' = 'id'"
            + bucketProperty()
            + extraProperties
            + ")");
  }

  /**
   * {@code 'bucket' = '4'}, or what the environment variable {@code BASALT_BENCH_BUCKET} names; -1
   * leaves the option out, which makes the table a dynamic-bucket table.
   */
  private static String bucketProperty() {
    String bucket = System.getenv().getOrDefault("BASALT_BENCH_BUCKET", "4");
    return "-1".equals(bucket.trim())
        ? ""
        : ", 'bucket' = '" + Integer.parseInt(bucket.trim()) + "'";
  }

  private List<Row> scanParquet(int round) {
    // reading inside the timed run includes file listing and footer reads, as the Basalt scan does
    spark.read().parquet(parquetDir(round).toString()).createOrReplaceTempView(PARQUET_VIEW);
    return spark.sql(String.format(Harness.SCAN_SQL, PARQUET_VIEW)).collectAsList();
  }

  private List<Row> scanBasalt(String table) {
    return spark.sql(String.format(Harness.SCAN_SQL, table)).collectAsList();
  }

  /**
   * Checks the Parquet copy after {@code round} rounds holds the expected number of rows and,
   * unless Parquet-only, that {@code table} has the same aggregate and the same rows.
   */
  private void verify(int round, @Nullable String table) {
    List<Row> expected = Harness.sorted(scanParquet(round));
    long counted = Harness.totalCount(expected);
    check(
        counted == batches.rowsAfter(round),
        "Parquet after %s round(s) counted %s rows, expected %s",
        round,
        counted,
        batches.rowsAfter(round));
    if (basalt()) {
      ResultCheck.sameAggregates(expected, Harness.sorted(scanBasalt(table)));
      ResultCheck.sameContents(contents(PARQUET_VIEW), contents(table));
      report.line("  verified: Basalt and Parquet agree (%,d rows)", counted);
    }
  }

  private Row contents(String table) {
    return spark.sql(String.format(ResultCheck.CONTENTS_SQL, table)).first();
  }
}

package io.basalt.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The peer suite of issue 19: the anchor workload (orders PARTITIONED BY dt, key (dt, order_id),
 * bulk load, upsert rounds of 10% updates + 2% inserts, scans, point lookups, a join on the key,
 * time travel) on plain Parquet, Iceberg 1.12 merge-on-read, Delta 4.1 with deletion vectors,
 * Basalt and Basalt with deletion vectors, in one local Spark session.
 *
 * <p>Every step runs round-robin across the systems, the order rotated from step to step and from
 * repetition to repetition, so drift (JIT, a filling heap, disk write-back) spreads over all of
 * them. Every read step's result (a count and an exact checksum, or the looked-up rows) must be the
 * same on every system, or the run fails. The report gives each median as a ratio to the first
 * system's (Parquet's) with the files each plan read. See {@code docs/benchmarks.md}.
 */
public final class PeerBenchmark {
  private static final String SOURCE_VIEW = "peer_orders";
  private static final String BATCH_VIEW = "peer_batch";

  private final SparkSession spark;
  private final BenchmarkOptions options;
  private final List<PeerSystem> systems;
  private final PeerReport report;
  private int rotation;

  private PeerBenchmark(SparkSession spark, BenchmarkOptions options, List<PeerSystem> systems) {
    this.spark = spark;
    this.options = options;
    this.systems = systems;
    this.report = new PeerReport(systems, System.out);
  }

  /**
   * Runs the suite: {@code [--rows N] [--reps K] [--warmups W] [--rounds R] [--systems a,b]}; see
   * {@link BenchmarkOptions#USAGE} and {@code --systems} in {@link PeerSystems#ALL}.
   */
  public static void main(String[] args) throws IOException {
    List<String> rest = new ArrayList<>(List.of(args));
    List<String> ids;
    BenchmarkOptions options;
    try {
      ids = PeerSystems.takeSystems(rest);
      options = BenchmarkOptions.parse(rest);
    } catch (IllegalArgumentException e) {
      System.err.println("Error: " + e.getMessage());
      System.err.print(BenchmarkOptions.USAGE);
      System.err.println("  --systems a,b     peers only: some of " + PeerSystems.ALL);
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.println(
          "benchmarks/run.sh peers: issue 19's workload on Parquet, Iceberg, Delta and Basalt"
              + " (docs/benchmarks.md)");
      System.out.print(BenchmarkOptions.USAGE);
      System.out.println("  --systems a,b     peers only: some of " + PeerSystems.ALL);
      return;
    }
    Path workDir = Files.createTempDirectory("basalt-peers-");
    try (SparkSession spark = PeerSystems.startSession(workDir)) {
      List<PeerSystem> systems = PeerSystems.create(ids, spark, workDir);
      new PeerBenchmark(spark, options, systems).run();
    } finally {
      Harness.deleteRecursively(workDir);
    }
  }

  private void run() {
    long rows = options.rows();
    int rounds = options.rounds();
    report.line(
        "PeerBenchmark: %,d rows, %s, %d warm-up(s) + %d timed rep(s) per read step and load,"
            + " %d upsert round(s) of %,d rows; systems: %s%n",
        rows,
        Harness.MASTER,
        options.warmups(),
        options.reps(),
        rounds,
        PeerData.batchRows(rows),
        systems.stream().map(PeerSystem::label).toList());
    Harness.cached(PeerData.orders(spark, rows), rows, "the orders")
        .createOrReplaceTempView(SOURCE_VIEW);

    load();
    Map<String, Long> loaded = new LinkedHashMap<>();
    systems.forEach(s -> loaded.put(s.id(), s.currentVersion()));
    long key = PeerData.lookupKey(rows);
    read("full scan", rows, s -> String.format(PeerData.SCAN_SQL, s.orders()));
    read("point lookup", -1, s -> String.format(PeerData.LOOKUP_SQL, s.orders(), key));

    upsertRound("upsert round 1", List.of(1));
    long afterOne = rows + PeerData.newKeysPerRound(rows);
    read("scan after 1 upsert", afterOne, s -> String.format(PeerData.SCAN_SQL, s.orders()));
    if (rounds > 1) {
      List<Integer> later = new ArrayList<>();
      for (int r = 2; r <= rounds; r++) {
        later.add(r);
      }
      upsertRound("upsert rounds 2-" + rounds + " (median)", later);
    }
    long afterAll = rows + rounds * PeerData.newKeysPerRound(rows);
    String after = "after " + rounds + " upsert" + (rounds == 1 ? "" : "s");
    read("scan " + after, afterAll, s -> String.format(PeerData.SCAN_SQL, s.orders()));
    read("point lookup " + after, -1, s -> String.format(PeerData.LOOKUP_SQL, s.orders(), key));

    join(rows);
    read(
        "time travel scan",
        rows,
        s -> String.format(PeerData.SCAN_SQL, s.ordersAsOf(loaded.get(s.id()))));

    report.line(
        "%nRatios to %s's median time (lower is better), files read by the plan:",
        systems.get(0).label());
    report.ratioTable();
    report.millisTable();
  }

  /** The bulk load, {@code warmups + reps} times per system, each into a freshly created table. */
  private void load() {
    report.line("bulk load");
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (int rep = 0; rep < options.warmups() + options.reps(); rep++) {
      boolean timed = rep >= options.warmups();
      for (PeerSystem system : nextOrder()) {
        double ms = Measurement.timed(system::reset, () -> system.load(SOURCE_VIEW));
        report.line("  load %s: %,.0f ms%s", system.id(), ms, levels(system));
        if (timed) {
          times.computeIfAbsent(system.id(), id -> new ArrayList<>()).add(ms);
        }
      }
    }
    record("bulk load", times, Map.of());
  }

  /**
   * Upsert rounds {@code roundNumbers}, each batch generated and cached untimed, then applied to
   * every system in a rotated order; one timed run per system per round.
   */
  private void upsertRound(String step, List<Integer> roundNumbers) {
    report.line(step);
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (int round : roundNumbers) {
      Dataset<Row> batch =
          Harness.cached(
              PeerData.batch(spark, options.rows(), round),
              PeerData.batchRows(options.rows()),
              "upsert round " + round);
      batch.createOrReplaceTempView(BATCH_VIEW);
      for (PeerSystem system : nextOrder()) {
        double ms = Measurement.timed(() -> {}, () -> system.upsert(BATCH_VIEW, round));
        times.computeIfAbsent(system.id(), id -> new ArrayList<>()).add(ms);
        report.line("  round %d %s: %,.0f ms%s", round, system.id(), ms, levels(system));
      }
      batch.unpersist(true);
    }
    record(step, times, Map.of());
  }

  /**
   * The level layout of a Basalt table after an upsert (untimed), to see which compactions ran:
   * per level the files and megabytes; empty for the other systems.
   */
  private String levels(PeerSystem system) {
    if (!(system instanceof BasaltPeer)) {
      return "";
    }
    StringBuilder out = new StringBuilder(" | levels:");
    for (Row row :
        spark
            .sql(
                "SELECT level, count(*), sum(file_size_in_bytes) FROM "
                    + filesTable(system.orders())
                    + " GROUP BY level ORDER BY level")
            .collectAsList()) {
      out.append(
          String.format(
              " L%d=%d files/%.1f MB", row.getInt(0), row.getLong(1), row.getLong(2) / 1e6));
    }
    return out.toString();
  }

  private static String filesTable(String table) {
    int dot = table.lastIndexOf('.');
    return table.substring(0, dot + 1) + "`" + table.substring(dot + 1) + "$files`";
  }

  /**
   * Creates each system's two join tables (the orders and every second order) untimed, then times
   * the join with storage-partitioned joins enabled where a system has them and broadcasts off.
   */
  private void join(long rows) {
    String left = "peer_join_left";
    String right = "peer_join_right";
    spark.table(SOURCE_VIEW).createOrReplaceTempView(left);
    spark
        .sql("SELECT * FROM " + SOURCE_VIEW + " WHERE order_id % 2 = 0")
        .createOrReplaceTempView(right);
    for (PeerSystem system : systems) {
      system.createJoinTables(left, right);
    }
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    PeerSystems.GROUPING_CONF.forEach(key -> spark.conf().set(key, "true"));
    try {
      read(
          "join, both sides 16 buckets",
          (rows + 1) / 2,
          s -> String.format(PeerData.JOIN_SQL, s.joinLeft(), s.joinRight()));
    } finally {
      spark.conf().unset("spark.sql.autoBroadcastJoinThreshold");
      PeerSystems.GROUPING_CONF.forEach(key -> spark.conf().unset(key));
    }
  }

  /**
   * A read step: {@code warmups + reps} runs per system, round-robin. Every run's rows must equal
   * the first system's; {@code expectedCount}, unless negative,, is the count in the first column.
   */
  private void read(String step, long expectedCount, Function<PeerSystem, String> queries) {
    report.line(step);
    Map<String, List<Double>> times = new LinkedHashMap<>();
    Map<String, PlanFiles> plans = new LinkedHashMap<>();
    Map<String, List<String>> results = new LinkedHashMap<>();
    for (int rep = 0; rep < options.warmups() + options.reps(); rep++) {
      boolean timed = rep >= options.warmups();
      for (PeerSystem system : nextOrder()) {
        String sql = queries.apply(system);
        List<Row> collected = new ArrayList<>();
        List<Dataset<Row>> query = new ArrayList<>();
        // analysis is inside the timed run: it lists Parquet's files and loads the tables' metadata
        double ms =
            Measurement.timed(
                () -> {},
                () -> {
                  query.add(spark.sql(sql));
                  collected.addAll(query.get(0).collectAsList());
                });
        results.put(system.id(), PeerChecks.canonical(collected));
        if (timed) {
          times.computeIfAbsent(system.id(), id -> new ArrayList<>()).add(ms);
          plans.put(system.id(), PlanFiles.of(query.get(0).queryExecution().executedPlan()));
        }
      }
      PeerChecks.sameResults(step, systems, results, expectedCount);
    }
    record(step, times, plans);
  }

  private void record(String step, Map<String, List<Double>> times, Map<String, PlanFiles> plans) {
    for (PeerSystem system : systems) {
      Measurement m = new Measurement(step + " " + system.id(), times.get(system.id()));
      report.add(step, system, new PeerReport.Result(m, plans.get(system.id())));
    }
  }

  /** The systems in the next rotation of their order, so each one takes every position in turn. */
  private List<PeerSystem> nextOrder() {
    List<PeerSystem> order = new ArrayList<>(systems);
    Collections.rotate(order, -(rotation++ % order.size()));
    return order;
  }
}

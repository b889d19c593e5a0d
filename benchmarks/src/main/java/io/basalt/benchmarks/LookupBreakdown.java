package io.basalt.benchmarks;

import io.basalt.operation.scan.TableScan;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.execution.QueryExecution;

/**
 * Where a point lookup's time goes (issue 19): the peer suite's lookup on plain Parquet and on
 * Basalt, after the bulk load and after five upsert rounds, split into Spark's phases (parse and
 * analysis, which loads the table; optimizer, which builds and plans our scan; physical planning;
 * execution) and, for Basalt, the engine's own driver steps timed alone. Medians of {@code --reps}
 * runs after {@code --warmups}, upserts {@code --rounds} times; run with {@code benchmarks/run.sh
 * lookup-breakdown --rows N}.
 */
public final class LookupBreakdown {
  private LookupBreakdown() {}

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options = BenchmarkOptions.parse(Arrays.asList(args));
    Path workDir = Files.createTempDirectory("basalt-lookup-");
    try (SparkSession spark = PeerSystems.startSession(workDir)) {
      run(spark, options, workDir);
    } finally {
      Harness.deleteRecursively(workDir);
    }
  }

  private static void run(SparkSession spark, BenchmarkOptions options, Path workDir) {
    long rows = options.rows();
    TaskTimes tasks = new TaskTimes();
    spark.sparkContext().addSparkListener(tasks);
    ParquetPeer parquet = new ParquetPeer(spark, workDir);
    BasaltPeer basalt = new BasaltPeer(spark, false);
    Dataset<Row> orders = PeerData.orders(spark, rows).cache();
    orders.count();
    orders.createOrReplaceTempView("lookup_source");
    for (PeerSystem system : List.of(parquet, basalt)) {
      system.reset();
      system.load("lookup_source");
    }
    long key = PeerData.lookupKey(rows);
    report("after the bulk load", spark, options, tasks, key, parquet, basalt);
    for (int round = 1; round <= options.rounds(); round++) {
      Dataset<Row> batch = PeerData.batch(spark, rows, round).cache();
      batch.count();
      batch.createOrReplaceTempView("lookup_batch");
      parquet.upsert("lookup_batch", round);
      basalt.upsert("lookup_batch", round);
      batch.unpersist();
    }
    report("after " + options.rounds() + " upserts", spark, options, tasks, key, parquet, basalt);
  }

  private static void report(
      String when,
      SparkSession spark,
      BenchmarkOptions options,
      TaskTimes tasks,
      long key,
      PeerSystem parquet,
      PeerSystem basalt) {
    System.out.println("\n## Point lookup " + when + " (median ms of " + options.reps() + ")\n");
    System.out.println(
        "| system | analysis | optimizer | physical | execution | total | tasks | task run"
            + " (sum) | task deserialize (sum) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (PeerSystem system : List.of(parquet, basalt)) {
      String sql = String.format(PeerData.LOOKUP_SQL, system.orders(), key);
      Map<String, List<Long>> phases = new LinkedHashMap<>();
      for (int i = 0; i < options.warmups() + options.reps(); i++) {
        Map<String, Long> one = lookupOnce(spark, sql, tasks);
        if (i >= options.warmups()) {
          one.forEach((k, v) -> phases.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
      }
      StringBuilder line = new StringBuilder("| " + system.label());
      for (List<Long> values : phases.values()) {
        line.append(" | ").append(String.format("%.1f", median(values) / 1e6));
      }
      System.out.println(line.append(" |"));
    }
    engineSteps(spark, options, basalt);
  }

  /** One lookup, timed phase by phase (nanoseconds; task counts as plain numbers * 1e6). */
  private static Map<String, Long> lookupOnce(SparkSession spark, String sql, TaskTimes tasks) {
    System.gc();
    Map<String, Long> times = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    Dataset<Row> df = spark.sql(sql);
    QueryExecution qe = df.queryExecution();
    qe.analyzed();
    long t1 = System.nanoTime();
    qe.optimizedPlan();
    long t2 = System.nanoTime();
    qe.executedPlan();
    long t3 = System.nanoTime();
    tasks.reset();
    List<Row> result = df.collectAsList();
    long t4 = System.nanoTime();
    Harness.check(!result.isEmpty(), "the lookup %s found no row", sql);
    times.put("analysis", t1 - t0);
    times.put("optimizer", t2 - t1);
    times.put("physical", t3 - t2);
    times.put("execution", t4 - t3);
    times.put("total", t4 - t0);
    // wait for the listener bus so the task figures belong to this query
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
    times.put("tasks", tasks.count.get() * 1_000_000L);
    times.put("run", tasks.runNanos.get());
    times.put("deserialize", tasks.deserializeNanos.get());
    return times;
  }

  /** The engine's driver steps alone: catalog loadTable, engine load, latest snapshot, planning. */
  private static void engineSteps(SparkSession spark, BenchmarkOptions options, PeerSystem basalt) {
    SparkCatalog catalog =
        (SparkCatalog) spark.sessionState().catalogManager().catalog(BasaltPeer.CATALOG);
    String[] parts = basalt.orders().split("\\.");
    Identifier ident = Identifier.of(new String[] {parts[1]}, parts[2]);
    FileStoreTable table = load(catalog, ident);
    Map<String, LongSupplier> steps = new LinkedHashMap<>();
    steps.put(
        "catalog.loadTable (Spark API)",
        () -> {
          try {
            return catalog.loadTable(ident).hashCode();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    steps.put("catalog.loadFileStoreTable", () -> load(catalog, ident).hashCode());
    steps.put("latestSnapshot", () -> table.latestSnapshot().orElseThrow().id());
    steps.put(
        "TableScan.plan (no filter, cached manifests)",
        () -> new TableScan(table).withDriverManifestCache().plan().splits().size());
    System.out.println("\n| Basalt engine step | median ms |\n|---|---|");
    for (Map.Entry<String, LongSupplier> step : steps.entrySet()) {
      List<Long> times = new ArrayList<>();
      for (int i = 0; i < options.warmups() + Math.max(options.reps(), 20); i++) {
        long start = System.nanoTime();
        step.getValue().getAsLong();
        if (i >= options.warmups()) {
          times.add(System.nanoTime() - start);
        }
      }
      System.out.printf("| %s | %.2f |%n", step.getKey(), median(times) / 1e6);
    }
  }

  private static FileStoreTable load(SparkCatalog catalog, Identifier ident) {
    try {
      return catalog.loadFileStoreTable(ident);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static double median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  /** Task counts and times of the jobs since the last reset. */
  private static final class TaskTimes extends SparkListener {
    final AtomicLong count = new AtomicLong();
    final AtomicLong runNanos = new AtomicLong();
    final AtomicLong deserializeNanos = new AtomicLong();

    void reset() {
      count.set(0);
      runNanos.set(0);
      deserializeNanos.set(0);
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      count.incrementAndGet();
      if (end.taskMetrics() != null) {
        runNanos.addAndGet(end.taskMetrics().executorRunTime() * 1_000_000L);
        deserializeNanos.addAndGet(end.taskMetrics().executorDeserializeTime() * 1_000_000L);
      }
    }
  }
}

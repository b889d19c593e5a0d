package io.basalt.benchmarks;

import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestCache;
import io.basalt.operation.scan.TableScan;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Planning a table of many small files (10,000 by default): Basalt's planning from manifests, cold
 * (nothing cached), warm (manifests in the driver cache) and serial (one manifest at a time),
 * against Spark listing a plain Parquet directory of the same files (hard links to Basalt's data
 * files) with its own {@code InMemoryFileIndex}. Each figure is the median of the timed runs;
 * ratios are to the Parquet listing.
 *
 * <p>The table is a primary-key table with {@code --buckets} buckets built through the engine API:
 * one small file per bucket written, then one more file per bucket and commit (a hard link under a
 * new name) until {@code --files} are live, so its snapshot lists the manifests that many commits
 * (and their manifest merges) leave behind.
 *
 * <pre>
 * java $SPARK_JVM_OPTIONS -cp benchmarks/target/basalt-benchmarks-*.jar:$(cat
 *     benchmarks/target/benchmarks.classpath) io.basalt.benchmarks.PlanningBenchmark
 *     [--files N] [--buckets B] [--reps K]
 * </pre>
 */
public final class PlanningBenchmark {
  private final SparkSession spark;
  private final Path workDir;
  private final int reps;

  private PlanningBenchmark(SparkSession spark, Path workDir, int reps) {
    this.spark = spark;
    this.workDir = workDir;
    this.reps = reps;
  }

  public static void main(String[] args) throws IOException {
    Map<String, Integer> options = parse(args);
    Path workDir = Files.createTempDirectory("basalt-planning-");
    try (SparkSession spark = session(workDir.resolve("warehouse"))) {
      new PlanningBenchmark(spark, workDir, options.get("--reps"))
          .run(options.get("--files"), options.get("--buckets"));
    } finally {
      Harness.deleteRecursively(workDir);
    }
  }

  private static Map<String, Integer> parse(String[] args) {
    Map<String, Integer> options =
        new java.util.HashMap<>(Map.of("--files", 10_000, "--buckets", 100, "--reps", 5));
    for (int i = 0; i < args.length; i += 2) {
      if (!options.containsKey(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "Unknown or incomplete argument '"
                + args[i]
                + "' in "
                + Arrays.toString(args)
                + "; expected --files N, --buckets B, --reps K");
      }
      int value = Integer.parseInt(args[i + 1]);
      Harness.check(value > 0, "%s must be positive, got %s", args[i], value);
      options.put(args[i], value);
    }
    return options;
  }

  private static SparkSession session(Path warehouse) {
    return SparkSession.builder()
        .master(Harness.MASTER)
        .appName("PlanningBenchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
        .config("spark.sql.catalog.paimon.warehouse", warehouse.toAbsolutePath().toString())
        .config("spark.sql.defaultCatalog", "paimon")
        .getOrCreate();
  }

  private void run(int targetFiles, int buckets) throws IOException {
    spark.sql("CREATE DATABASE IF NOT EXISTS db");
    spark.sql(
        "CREATE TABLE db.t (id BIGINT NOT NULL, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '"
            + buckets
            + "', 'write-only' = 'true')");
    Path tableDir = workDir.resolve("warehouse").resolve("db.db").resolve("t");
    FileStoreTable table =
        FileStoreTable.load(
            FileIO.local(), new org.apache.hadoop.fs.Path(tableDir.toUri()), "db.t");
    long started = System.nanoTime();
    int files = write(table, targetFiles, buckets);
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    int manifests =
        table.manifestFiles().readManifestList(snapshot.baseManifestList()).size()
            + table.manifestFiles().readManifestList(snapshot.deltaManifestList()).size();
    System.out.printf(
        "Table: %d data files in %d buckets, %d commits, %d manifests (written in %.1f s)%n",
        files, buckets, snapshot.id(), manifests, (System.nanoTime() - started) / 1e9);
    Path parquetDir = linkDataFiles(tableDir, workDir.resolve("parquet"));
    try (Stream<Path> linked = Files.list(parquetDir)) {
      long count = linked.count();
      Harness.check(count == files, "linked %s Parquet files, expected %s", count, files);
    }

    FileStoreTable serialTable = table.copyWithOptions(Map.of("scan.manifest.parallelism", "1"));
    ManifestCache warmCache = new ManifestCache(ManifestCache.DEFAULT_MAX_BYTES);
    table.newScan().withManifestCache(warmCache).plan();
    List<String[]> rows = new ArrayList<>();
    double parquet = time(() -> listParquet(parquetDir, files));
    rows.add(row("Spark InMemoryFileIndex, plain Parquet dir", parquet, parquet));
    rows.add(row("Basalt plan, cold", time(() -> plan(table, null, files)), parquet));
    rows.add(row("Basalt plan, cold, serial", time(() -> plan(serialTable, null, files)), parquet));
    rows.add(row("Basalt plan, warm cache", time(() -> plan(table, warmCache, files)), parquet));
    rows.add(row("Spark SQL Parquet, to partitions", time(() -> sqlParquet(parquetDir)), parquet));
    rows.add(
        row(
            "Spark SQL Basalt, cold, to partitions",
            time(
                () -> {
                  ManifestCache.shared().clear();
                  return sqlBasalt();
                }),
            parquet));
    rows.add(row("Spark SQL Basalt, warm, to partitions", time(this::sqlBasalt), parquet));
    System.out.printf("%n%-42s %12s %10s%n", "planning (median of " + reps + ")", "ms", "ratio");
    for (String[] row : rows) {
      System.out.printf("%-42s %12s %10s%n", (Object[]) row);
    }
  }

  /**
   * Writes one small file per bucket through the engine, then commits hard links to those files
   * under new names, one per bucket and commit, until exactly {@code target} files are live: the
   * metadata of a table written by {@code target / buckets} commits, without the time of writing
   * them. Returns the number of files.
   */
  private static int write(FileStoreTable table, int target, int buckets) throws IOException {
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 4L * buckets; id++) {
      write.write(row(id));
    }
    List<CommitMessage> first = write.prepareCommit();
    int files = first.stream().mapToInt(m -> m.newFiles().size()).sum();
    table.newCommit("planning-benchmark").commit(first, 0);
    for (long commit = 1; files < target; commit++) {
      List<CommitMessage> messages = new ArrayList<>();
      for (CommitMessage message : first) {
        List<DataFileMeta> links = new ArrayList<>();
        for (DataFileMeta file : message.newFiles()) {
          if (files < target) {
            links.add(link(table, message, file));
            files++;
          }
        }
        if (!links.isEmpty()) {
          messages.add(
              new CommitMessage(
                  message.partition(),
                  message.bucket(),
                  message.totalBuckets(),
                  links,
                  List.of(),
                  List.of(),
                  List.of(),
                  List.of(),
                  List.of()));
        }
      }
      table.newCommit("planning-benchmark").commit(messages, commit);
    }
    return files;
  }

  /** A hard link to {@code file} in its bucket under a fresh name, as the file's metadata. */
  private static DataFileMeta link(FileStoreTable table, CommitMessage message, DataFileMeta file)
      throws IOException {
    Path dir =
        Path.of(table.dataFilePaths().bucketDir(message.partition(), message.bucket()).toUri());
    String name = "data-" + UUID.randomUUID() + "-0.parquet";
    Files.createLink(dir.resolve(name), dir.resolve(file.fileName()));
    return new DataFileMeta(
        name,
        file.fileSize(),
        file.rowCount(),
        file.minKey(),
        file.maxKey(),
        file.keyStats(),
        file.valueStats(),
        file.minSequenceNumber(),
        file.maxSequenceNumber(),
        file.schemaId(),
        file.level(),
        file.extraFiles(),
        file.creationTimeMillis(),
        file.deleteRowCount(),
        file.embeddedIndex(),
        file.fileSource(),
        file.valueStatsCols(),
        file.externalPath(),
        file.firstRowId(),
        file.writeCols());
  }

  private static InternalRow row(long id) {
    return new GenericInternalRow(new Object[] {id, UTF8String.fromString("v" + id)});
  }

  /** Hard links of the table's data files in one flat directory: the same bytes, no copy. */
  private static Path linkDataFiles(Path tableDir, Path target) throws IOException {
    Files.createDirectories(target);
    try (Stream<Path> paths = Files.walk(tableDir)) {
      List<Path> files =
          paths
              .filter(p -> p.getFileName().toString().startsWith("data-"))
              .filter(p -> p.toString().endsWith(".parquet"))
              .toList();
      for (Path file : files) {
        Files.createLink(
            target.resolve(file.getParent().getFileName() + "-" + file.getFileName()), file);
      }
    }
    return target;
  }

  private long plan(FileStoreTable table, ManifestCache cache, int files) {
    TableScan.Plan plan = table.newScan().withManifestCache(cache).plan();
    long planned = plan.splits().stream().mapToLong(split -> split.files().size()).sum();
    Harness.check(planned == files, "planned %s files, expected %s", planned, files);
    return plan.metrics().manifestsRead();
  }

  private long listParquet(Path dir, int files) {
    org.apache.spark.sql.execution.datasources.InMemoryFileIndex index =
        new org.apache.spark.sql.execution.datasources.InMemoryFileIndex(
            spark,
            scala.jdk.javaapi.CollectionConverters.asScala(
                    // a URI path keeps its trailing slash, which the index's lookup would miss
                    List.of(new org.apache.hadoop.fs.Path(dir.toAbsolutePath().toString())))
                .toSeq(),
            scala.collection.immutable.Map$.MODULE$.empty(),
            scala.Option.empty(),
            org.apache.spark.sql.execution.datasources.NoopCache$.MODULE$,
            scala.Option.empty(),
            scala.Option.empty());
    long listed = index.allFiles().size();
    Harness.check(listed == files, "listed %s files, expected %s", listed, files);
    return listed;
  }

  private long sqlParquet(Path dir) {
    return spark
        .read()
        .schema("id BIGINT, v STRING")
        .parquet(dir.toString())
        .queryExecution()
        .executedPlan()
        .execute()
        .getNumPartitions();
  }

  private long sqlBasalt() {
    return spark
        .sql("SELECT * FROM db.t")
        .queryExecution()
        .executedPlan()
        .execute()
        .getNumPartitions();
  }

  /** The median milliseconds of {@code reps} runs after one untimed run. */
  private double time(LongSupplier body) {
    body.getAsLong();
    double[] millis = new double[reps];
    for (int i = 0; i < reps; i++) {
      long start = System.nanoTime();
      body.getAsLong();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    return millis[reps / 2];
  }

  private static String[] row(String what, double millis, double parquetMillis) {
    return new String[] {
      what, String.format("%.1f", millis), String.format("%.2fx", millis / parquetMillis)
    };
  }
}

package io.basalt.spark.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One local[2] SparkSession per test class with the Basalt catalog {@code paimon} as the current
 * catalog and the extensions installed, exactly as a user configures them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SparkTestBase {
  protected SparkSession spark;
  protected Path warehouse;

  @BeforeAll
  void startSpark() throws IOException {
    warehouse = Files.createTempDirectory("basalt-it-");
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName(getClass().getSimpleName())
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
            .config("spark.sql.catalog.paimon.warehouse", warehouse.toUri().toString())
            .config("spark.sql.defaultCatalog", "paimon")
            .config(
                "spark.sql.extensions", "io.basalt.spark.extensions.BasaltSparkSessionExtensions");
    configure(builder);
    spark = builder.getOrCreate();
  }

  /** Adds a test class's own session configuration (for example another serializer). */
  protected void configure(SparkSession.Builder builder) {}

  @AfterAll
  void stopSpark() {
    if (spark != null) {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
    deleteRecursively(warehouse);
  }

  /** Runs {@code sql} (a format string) and returns its rows as arrays of Java values. */
  protected List<Object[]> sql(String sql, Object... args) {
    List<Row> rows = spark.sql(String.format(sql, args)).collectAsList();
    List<Object[]> result = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = row.get(i);
      }
      result.add(values);
    }
    return result;
  }

  /** The rows of {@code sql} rendered as strings like {@code 1,a,null}, sorted. */
  protected List<String> rows(String sql, Object... args) {
    List<String> result = new ArrayList<>();
    for (Object[] row : sql(sql, args)) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        sb.append(i == 0 ? "" : ",").append(row[i]);
      }
      result.add(sb.toString());
    }
    result.sort(Comparator.naturalOrder());
    return result;
  }

  /** The directory of table {@code db.table} in the warehouse. */
  protected Path tablePath(String db, String table) {
    return warehouse.resolve(db + ".db").resolve(table);
  }

  /** Paths of the regular files under {@code dir}, relative to it, with '/' separators, sorted. */
  protected static List<String> filesUnder(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.endsWith(".crc") && !p.contains("/."))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + dir, e);
    }
  }

  /** Names of the directories directly inside {@code dir} starting with {@code prefix}, sorted. */
  protected static List<String> dirsUnder(Path dir, String prefix) {
    return namesIn(dir, prefix, true);
  }

  /** Names of the files directly in {@code dir} starting with {@code prefix}, sorted. */
  protected static List<String> fileNames(Path dir, String prefix) {
    return namesIn(dir, prefix, false);
  }

  private static List<String> namesIn(Path dir, String prefix, boolean directories) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> directories ? Files.isDirectory(p) : Files.isRegularFile(p))
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(prefix))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + dir, e);
    }
  }

  /** The data files ({@code .parquet}) under {@code dir}, relative paths, sorted. */
  protected static List<String> dataFiles(Path dir) {
    return filesUnder(dir).stream().filter(p -> p.endsWith(".parquet")).toList();
  }

  protected static void deleteRecursively(Path path) {
    if (path == null || !Files.exists(path)) {
      return;
    }
    try (Stream<Path> files = Files.walk(path)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to clean up " + path, e);
    }
  }

  /** The Basalt scan nodes of {@code df}'s executed plan (run the query first for metrics). */
  protected static List<BatchScanExec> scans(Dataset<Row> df) {
    List<BatchScanExec> result = new ArrayList<>();
    collectScans(df.queryExecution().executedPlan(), result);
    return result;
  }

  private static void collectScans(SparkPlan plan, List<BatchScanExec> result) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collectScans(adaptive.executedPlan(), result);
    } else if (plan instanceof QueryStageExec stage) {
      collectScans(stage.plan(), result);
    } else if (plan instanceof BatchScanExec scan) {
      result.add(scan);
    }
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collectScans(children.next(), result);
    }
  }

  /** The single scan of {@code df}'s executed plan. */
  protected static BatchScanExec onlyScan(Dataset<Row> df) {
    List<BatchScanExec> result = scans(df);
    org.assertj.core.api.Assertions.assertThat(result).hasSize(1);
    return result.get(0);
  }

  /** Runs {@code query}, collecting its rows, and returns its single scan, executed. */
  protected BatchScanExec executedScan(String query) {
    Dataset<Row> df = spark.sql(query);
    df.collectAsList();
    return onlyScan(df);
  }

  /** The value of scan metric {@code name} (driver or task metric) of an executed scan. */
  protected static long metric(BatchScanExec scan, String name) {
    return scan.metrics().apply(name).value();
  }
}

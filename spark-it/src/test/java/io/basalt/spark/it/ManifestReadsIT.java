package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestCache;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each manifest is read at most once per query: a scan plans once however often Spark asks it
 * (statistics, partitions, metrics, runtime filters), and a second scan of the same snapshot in the
 * query (a self-join, the build side of dynamic partition pruning) takes the manifests from the
 * driver's cache. The {@code manifestsRead} metric, summed over the query's scans, is the number of
 * manifests of the snapshots it read; the cache's own miss count agrees.
 */
class ManifestReadsIT extends SparkTestBase {
  private static final int COMMITS = 6;

  @BeforeAll
  void createTables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.facts (id BIGINT, v STRING, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'dt,id', 'bucket' = '2')");
    for (int commit = 0; commit < COMMITS; commit++) {
      sql(
          "INSERT INTO db.facts SELECT id, 'v%d', concat('2026-12-0', CAST(id %% 3 + 1 AS STRING))"
              + " FROM range(%d, %d)",
          commit, commit * 100, commit * 100 + 100);
    }
    sql("CREATE TABLE db.days (dt STRING, label STRING)");
    sql("INSERT INTO db.days VALUES ('2026-12-01', 'first'), ('2026-12-02', 'second')");
    sql("INSERT INTO db.days VALUES ('2026-12-03', 'third')");
  }

  @BeforeEach
  void coldCache() {
    ManifestCache.shared().clear();
  }

  /** The manifest files the latest snapshot of {@code db.name} lists (base and delta). */
  private long manifestsOf(String name) {
    FileStoreTable table =
        FileStoreTable.load(FileIO.local(), new Path(tablePath("db", name).toUri()), "db." + name);
    Snapshot latest = table.latestSnapshot().orElseThrow();
    ManifestFiles files = table.manifestFiles();
    return files.readManifestList(latest.baseManifestList()).size()
        + files.readManifestList(latest.deltaManifestList()).size();
  }

  /** Runs {@code query} and returns its scans, with the cache's misses during the run. */
  private Executed run(String query) {
    long missesBefore = ManifestCache.shared().misses();
    long hitsBefore = ManifestCache.shared().hits();
    Dataset<Row> df = spark.sql(query);
    List<Row> rows = df.collectAsList();
    return new Executed(
        rows,
        scans(df),
        ManifestCache.shared().misses() - missesBefore,
        ManifestCache.shared().hits() - hitsBefore);
  }

  private record Executed(List<Row> rows, List<BatchScanExec> scans, long misses, long hits) {
    long sum(String metric) {
      return scans.stream().mapToLong(scan -> metric(scan, metric)).sum();
    }
  }

  @Test
  void aScanReadsEachManifestOnceAndTheNextQueryNone() {
    long manifests = manifestsOf("facts");
    assertThat(manifests).isGreaterThan(1);
    String query = "SELECT count(*), sum(id) FROM db.facts";
    Executed cold = run(query);
    assertThat(cold.rows().get(0).getLong(0)).isEqualTo(COMMITS * 100L);
    assertThat(cold.scans()).hasSize(1);
    assertThat(cold.sum("manifestsRead")).isEqualTo(manifests);
    assertThat(cold.misses()).isEqualTo(manifests);
    // planned once: statistics, partitions, description and metrics share the plan
    assertThat(cold.hits()).isZero();

    Executed warm = run(query);
    assertThat(warm.rows()).isEqualTo(cold.rows());
    assertThat(warm.sum("manifestsRead")).isZero();
    assertThat(warm.sum("manifestsFromCache")).isEqualTo(manifests);
  }

  @Test
  void aPartitionFilterSkipsManifestsAndReadsTheRestOnce() {
    long manifests = manifestsOf("facts");
    Executed run = run("SELECT count(*) FROM db.facts WHERE dt = '2026-12-02'");
    assertThat(run.rows().get(0).getLong(0)).isEqualTo(COMMITS * 100L / 3);
    assertThat(run.sum("manifestsRead") + run.sum("manifestsSkipped")).isEqualTo(manifests);
    assertThat(run.misses()).isEqualTo(run.sum("manifestsRead"));
  }

  @Test
  void withoutTheCacheAScanStillPlansOnce() {
    long manifests = manifestsOf("facts");
    spark.conf().set("spark.paimon.cache-enabled", "false");
    try {
      Executed first = run("SELECT count(*) FROM db.facts");
      Executed second = run("SELECT count(*) FROM db.facts");
      assertThat(first.sum("manifestsRead")).isEqualTo(manifests);
      assertThat(second.sum("manifestsRead")).isEqualTo(manifests);
      assertThat(first.misses() + second.misses() + first.hits() + second.hits()).isZero();
      assertThat(ManifestCache.shared().size()).isZero();
    } finally {
      spark.conf().unset("spark.paimon.cache-enabled");
    }
  }

  @Test
  void aSelfJoinReadsEachManifestOnce() {
    long manifests = manifestsOf("facts");
    Executed run =
        run(
            "SELECT count(*) FROM db.facts a JOIN db.facts b ON a.id = b.id AND a.dt = b.dt"
                + " WHERE b.v <> 'none'");
    assertThat(run.rows().get(0).getLong(0)).isEqualTo(COMMITS * 100L);
    assertThat(run.scans()).hasSizeGreaterThanOrEqualTo(1);
    assertThat(run.sum("manifestsRead")).isEqualTo(manifests);
    assertThat(run.misses()).isEqualTo(manifests);
    // the second scan of the same snapshot took every manifest from the cache
    assertThat(run.hits()).isEqualTo(manifests);
  }

  @Test
  void dynamicPartitionPruningReadsEachManifestOnce() {
    long facts = manifestsOf("facts");
    long days = manifestsOf("days");
    Executed run =
        run(
            "SELECT d.label, count(*) FROM db.facts f JOIN db.days d ON f.dt = d.dt"
                + " WHERE d.label = 'second' GROUP BY d.label");
    assertThat(run.rows()).hasSize(1);
    assertThat(run.rows().get(0).getLong(1)).isEqualTo(COMMITS * 100L / 3);
    BatchScanExec factScan =
        run.scans().stream()
            .filter(scan -> scan.scan().description().contains("db.facts"))
            .findFirst()
            .orElseThrow();
    assertThat(factScan.runtimeFilters().isEmpty())
        .as("the facts scan is pruned at run time: %s", factScan)
        .isFalse();
    assertThat(run.sum("manifestsRead")).isEqualTo(facts + days);
    assertThat(run.misses()).isEqualTo(facts + days);
  }
}

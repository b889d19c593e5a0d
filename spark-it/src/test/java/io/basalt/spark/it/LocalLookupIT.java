package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Point lookups on primary-key tables are answered on the driver: the physical plan is a {@code
 * LocalTableScan} and the query runs no Spark job. Every result is checked equal to the same query
 * with {@code spark.basalt.read.local-lookup.enabled = false} (the distributed scan) and to the
 * same query written so that nothing can be pushed.
 */
class LocalLookupIT extends SparkTestBase {
  private static final String ENABLED = "spark.basalt.read.local-lookup.enabled";
  private static final String MAX_FILES = "spark.basalt.read.local-lookup.max-files";

  private final AtomicInteger jobs = new AtomicInteger();

  @BeforeAll
  void createTables() {
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onJobStart(SparkListenerJobStart jobStart) {
                jobs.incrementAndGet();
              }
            });
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.orders (order_id BIGINT, dt STRING, amount BIGINT, note STRING)"
            + " PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,order_id', 'bucket' = '4')");
    sql(
        "INSERT INTO db.orders SELECT id, dt, id %% 97, CONCAT('note-', id) FROM range(0, 2000),"
            + " VALUES ('2026-01-01'), ('2026-01-02') AS p(dt)");
    // an upsert round and a delete: the lookup must merge them
    sql(
        "INSERT INTO db.orders SELECT id, '2026-01-01', id + 1000, 'updated' FROM range(0, 2000, 7)");
    sql("DELETE FROM db.orders WHERE order_id = 14 AND dt = '2026-01-02'");
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(ENABLED);
    spark.conf().unset(MAX_FILES);
    sql("DROP TABLE IF EXISTS db.t");
  }

  /** Waits for the listener bus, so that {@link #jobs} counts every job started so far. */
  private int jobsSoFar() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("Spark's listener bus did not drain", e);
    }
    return jobs.get();
  }

  private static void collect(SparkPlan plan, List<SparkPlan> out) {
    out.add(plan);
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collect(children.next(), out);
    }
  }

  private static List<String> nodeNames(Dataset<Row> df) {
    List<SparkPlan> nodes = new ArrayList<>();
    collect(df.queryExecution().executedPlan(), nodes);
    List<String> names = new ArrayList<>();
    for (SparkPlan node : nodes) {
      names.add(node.nodeName());
    }
    return names;
  }

  private static boolean has(Dataset<Row> df, String node) {
    return nodeNames(df).stream().anyMatch(name -> name.startsWith(node));
  }

  /**
   * The rows of {@code query}, asserting it ran on the driver without a job and returned what the
   * distributed scan returns.
   */
  private List<String> local(String query) {
    int before = jobsSoFar();
    List<String> result = rows(query);
    assertThat(jobsSoFar()).as("jobs run by %s", query).isEqualTo(before);
    assertThat(spark.sql(query).queryExecution().executedPlan())
        .as(query)
        .isInstanceOf(LocalTableScanExec.class);
    assertThat(result).as("the distributed scan's rows of " + query).isEqualTo(distributed(query));
    return result;
  }

  /**
   * The rows of {@code query}, whose projection reorders the scan's columns: Spark projects the
   * lookup's rows in a small job (no file is read in it), and the result is the distributed scan's.
   */
  private List<String> projected(String query) {
    Dataset<Row> df = spark.sql(query);
    assertThat(has(df, "LocalTableScan")).as(query).isTrue();
    assertThat(has(df, "BatchScan")).as(query).isFalse();
    List<String> result = rows(query);
    assertThat(result).as("the distributed scan's rows of " + query).isEqualTo(distributed(query));
    return result;
  }

  /** The rows of {@code query} with lookups off, asserting it used the distributed scan. */
  private List<String> distributed(String query) {
    spark.conf().set(ENABLED, "false");
    try {
      assertThat(has(spark.sql(query), "BatchScan")).as(query).isTrue();
      return rows(query);
    } finally {
      spark.conf().unset(ENABLED);
    }
  }

  @Test
  void pointLookupRunsNoJobAndMergesUpsertsAndDeletes() {
    assertThat(local("SELECT * FROM db.orders WHERE order_id = 7"))
        .containsExactly("7,2026-01-01,1007,updated", "7,2026-01-02,7,note-7")
        .isEqualTo(rows("SELECT * FROM db.orders WHERE CAST(order_id AS STRING) = '7'"));
    // deleted in one partition
    assertThat(local("SELECT * FROM db.orders WHERE order_id = 14"))
        .containsExactly("14,2026-01-01,1014,updated");
    assertThat(local("SELECT dt, note FROM db.orders WHERE order_id = 8 AND dt = '2026-01-02'"))
        .containsExactly("2026-01-02,note-8");
    assertThat(projected("SELECT note, dt FROM db.orders WHERE order_id = 8 AND dt = '2026-01-02'"))
        .containsExactly("note-8,2026-01-02");
  }

  @Test
  void inListsAndMissingKeys() {
    assertThat(local("SELECT order_id, dt, amount FROM db.orders WHERE order_id IN (3, 7, 99999)"))
        .isEqualTo(
            rows(
                "SELECT order_id, dt, amount FROM db.orders"
                    + " WHERE CAST(order_id AS STRING) IN ('3', '7', '99999')"))
        .hasSize(4);
    assertThat(local("SELECT * FROM db.orders WHERE order_id = 123456789")).isEmpty();
    assertThat(local("SELECT * FROM db.orders WHERE order_id = 5 AND dt = '2027-01-01'")).isEmpty();
    // an OR of keys is a finite set too
    assertThat(local("SELECT order_id FROM db.orders WHERE order_id = 1 OR order_id = 2"))
        .containsExactly("1", "1", "2", "2");
  }

  @Test
  void projectionWithoutTheKeyColumns() {
    // the key columns are read only to filter rows: the output has just the asked-for column
    assertThat(local("SELECT amount FROM db.orders WHERE order_id = 21"))
        .containsExactly("1021", "21");
    // an aggregate over the lookup's rows
    assertThat(rows("SELECT count(*) FROM db.orders WHERE order_id = 21")).containsExactly("2");
  }

  @Test
  void otherFiltersAreLeftToSpark() {
    String query = "SELECT order_id, dt FROM db.orders WHERE order_id = 21 AND amount > 100";
    Dataset<Row> df = spark.sql(query);
    assertThat(has(df, "LocalTableScan")).isTrue();
    assertThat(has(df, "BatchScan")).isFalse();
    assertThat(rows(query)).containsExactly("21,2026-01-01").isEqualTo(distributed(query));
  }

  @Test
  void unboundedFiltersUseTheDistributedScan() {
    for (String query :
        List.of(
            "SELECT * FROM db.orders WHERE order_id > 1990",
            "SELECT * FROM db.orders WHERE dt = '2026-01-01'",
            "SELECT * FROM db.orders WHERE amount = 7",
            "SELECT * FROM db.orders WHERE order_id = 7 OR amount = 7")) {
      Dataset<Row> df = spark.sql(query);
      assertThat(has(df, "BatchScan")).as(query).isTrue();
      assertThat(has(df, "LocalTableScan")).as(query).isFalse();
    }
  }

  @Test
  void tooManyFilesUseTheDistributedScan() {
    // key 7: one file in 2026-01-02, two in the upserted 2026-01-01; key 8 of 2026-01-02: at most
    // two
    spark.conf().set(MAX_FILES, "2");
    assertThat(has(spark.sql("SELECT * FROM db.orders WHERE order_id = 7"), "BatchScan")).isTrue();
    assertThat(
            has(
                spark.sql("SELECT * FROM db.orders WHERE order_id = 8 AND dt = '2026-01-02'"),
                "LocalTableScan"))
        .isTrue();
  }

  @Test
  void invalidMaxFilesIsRejected() {
    spark.conf().set(MAX_FILES, "many");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM db.orders WHERE order_id = 7").collect())
        .hasMessageContaining("Invalid value 'many' for session conf " + MAX_FILES)
        .hasMessageContaining("Fix: SET " + MAX_FILES + " = 16");
  }

  @Test
  void explainShowsTheLocalScan() {
    String plan =
        spark
            .sql("EXPLAIN SELECT * FROM db.orders WHERE order_id = 7")
            .collectAsList()
            .get(0)
            .getString(0);
    assertThat(plan).contains("LocalTableScan").doesNotContain("BatchScan");
  }

  @Test
  void timeTravel() {
    long first =
        (Long) sql("SELECT snapshot_id FROM db.`orders$snapshots` ORDER BY snapshot_id").get(0)[0];
    assertThat(local("SELECT * FROM db.orders VERSION AS OF " + first + " WHERE order_id = 7"))
        .containsExactly("7,2026-01-01,7,note-7", "7,2026-01-02,7,note-7");
    assertThat(local("SELECT * FROM db.orders VERSION AS OF " + first + " WHERE order_id = 14"))
        .hasSize(2);
  }

  @Test
  void metadataColumns() {
    // the scan reads metadata columns in Spark's order, so Spark projects them into the query's
    assertThat(
            projected(
                "SELECT order_id, __paimon_bucket, __paimon_partition FROM db.orders"
                    + " WHERE order_id = 9"))
        .hasSize(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"deduplicate", "partial-update", "aggregation", "first-row"})
  void everyMergeEngine(String engine) {
    String options =
        switch (engine) {
          case "aggregation" -> ", 'fields.v.aggregate-function' = 'sum'";
          default -> "";
        };
    sql(
        "CREATE TABLE db.t (k INT NOT NULL, v BIGINT, s STRING) TBLPROPERTIES ('primary-key' ="
            + " 'k', 'bucket' = '2', 'merge-engine' = '%s'%s)",
        engine, options);
    sql("INSERT INTO db.t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, null)");
    sql("INSERT INTO db.t VALUES (1, 5, null), (3, 1, 'c')");
    for (String where : List.of("k = 1", "k = 3", "k IN (1, 2, 3, 4)", "k = 4")) {
      String query = "SELECT * FROM db.t WHERE " + where;
      assertThat(local(query))
          .as(engine + ": " + where)
          .isEqualTo(rows("SELECT * FROM db.t WHERE " + where.replace("k", "k + 0")));
    }
  }

  @Test
  void deletionVectorsAfterUpsertsAndDeletes() {
    sql(
        "CREATE TABLE db.t (k BIGINT, p STRING, v STRING) PARTITIONED BY (p) TBLPROPERTIES"
            + " ('primary-key' = 'p,k', 'bucket' = '2', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO db.t SELECT id, 'x', CONCAT('v', id) FROM range(0, 500)");
    sql("INSERT INTO db.t SELECT id, 'x', 'upserted' FROM range(0, 500, 3)");
    sql("DELETE FROM db.t WHERE k = 6");
    sql("INSERT INTO db.t SELECT id, 'x', 'again' FROM range(0, 500, 5)");
    for (String where : List.of("k = 3", "k = 5", "k = 6", "k = 7", "k IN (15, 30, 31)")) {
      String query = "SELECT * FROM db.t WHERE " + where;
      assertThat(local(query))
          .as(where)
          .isEqualTo(rows("SELECT * FROM db.t WHERE " + where.replace("k", "k + 0")));
    }
    assertThat(local("SELECT v FROM db.t WHERE k = 15")).containsExactly("again");
    assertThat(local("SELECT v FROM db.t WHERE k = 6")).isEmpty();
  }
}

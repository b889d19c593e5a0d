package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SortExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.joins.SortMergeJoinExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Storage-partitioned joins (issue 14): with {@code scan.preserve-data-grouping} a fixed-bucket
 * scan reports {@code bucket(N, key)}, and joins on the key need no shuffle; without it (the
 * default) scans pack splits by size and Spark shuffles. Plans are asserted with AQE on and off.
 */
class StoragePartitionedJoinIT extends SparkTestBase {
  private static final String GROUPING = "spark.paimon.scan.preserve-data-grouping";
  private static final String JOIN =
      "SELECT a.id, a.v, b.w FROM db.%s a JOIN db.%s b ON a.id = b.id";

  @BeforeAll
  void tables() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    // two 16-bucket tables written in several commits: several sorted runs per bucket
    for (String t : List.of("a16", "b16")) {
      sql(
          "CREATE TABLE db.%s (id BIGINT, v STRING, w INT) TBLPROPERTIES ('primary-key' = 'id',"
              + " 'bucket' = '16')",
          t);
      for (int i = 0; i < 3; i++) {
        sql(
            "INSERT INTO db.%s SELECT id, CONCAT('%s', id, '-%s'), CAST(id %% 7 AS INT)"
                + " FROM range(%s, %s)",
            t, t, i, i * 300, 1000 + i * 300);
      }
    }
    sql(
        "CREATE TABLE db.b8 (id BIGINT, v STRING, w INT) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '8')");
    sql("INSERT INTO db.b8 SELECT id, CONCAT('b8-', id), CAST(id %% 5 AS INT) FROM range(0, 1500)");
  }

  @AfterEach
  void resetConf() {
    for (String key :
        List.of(
            GROUPING,
            "spark.sql.adaptive.enabled",
            "spark.sql.autoBroadcastJoinThreshold",
            "spark.sql.sources.v2.bucketing.enabled",
            "spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled",
            "spark.sql.sources.v2.bucketing.partiallyClusteredDistribution.enabled",
            "spark.sql.optimizer.dynamicPartitionPruning.reuseBroadcastOnly")) {
      spark.conf().unset(key);
    }
  }

  private void joinSetup(boolean aqe) {
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
  }

  /** The nodes of the executed (final, when adaptive) plan of {@code df}, run first. */
  private static List<SparkPlan> nodes(Dataset<Row> df) {
    df.collectAsList();
    List<SparkPlan> result = new ArrayList<>();
    collect(df.queryExecution().executedPlan(), result);
    return result;
  }

  private static void collect(SparkPlan plan, List<SparkPlan> result) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collect(adaptive.executedPlan(), result);
      return;
    }
    if (plan instanceof QueryStageExec stage) {
      collect(stage.plan(), result);
      return;
    }
    result.add(plan);
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collect(children.next(), result);
    }
  }

  private static long count(List<SparkPlan> nodes, Class<?> type) {
    return nodes.stream().filter(type::isInstance).count();
  }

  private String explain(String query) {
    return spark.sql("EXPLAIN " + query).collectAsList().get(0).getString(0);
  }

  /** The join's rows computed without any Basalt layout: from plain Spark tables of its rows. */
  private List<String> expectedJoin(String left, String right) {
    spark.conf().set(GROUPING, "false");
    spark.table("db." + left).createOrReplaceTempView("l_copy");
    spark.table("db." + right).createOrReplaceTempView("r_copy");
    List<String> expected =
        rows("SELECT l.id, l.v, r.w FROM (SELECT * FROM l_copy) l JOIN r_copy r ON l.id = r.id");
    spark.conf().unset(GROUPING);
    return expected;
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void groupedJoinHasNoShuffleAndNoSort(boolean aqe) {
    List<String> expected = expectedJoin("a16", "b16");
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    Dataset<Row> df = spark.sql(String.format(JOIN, "a16", "b16"));
    List<SparkPlan> nodes = nodes(df);
    assertThat(count(nodes, ShuffleExchangeExec.class)).isZero();
    assertThat(count(nodes, SortMergeJoinExec.class)).isEqualTo(1);
    // every bucket is one merged read in key order: the scans report it, no Sort is needed
    assertThat(count(nodes, SortExec.class)).isZero();
    assertThat(rows(String.format(JOIN, "a16", "b16"))).isEqualTo(expected).hasSize(1600);
    assertThat(explain(String.format(JOIN, "a16", "b16")))
        .contains("grouping=on: [bucket(16, id)], ordered by [id]");
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void defaultJoinShuffles(boolean aqe) {
    joinSetup(aqe);
    Dataset<Row> df = spark.sql(String.format(JOIN, "a16", "b16"));
    assertThat(count(nodes(df), ShuffleExchangeExec.class)).isEqualTo(2);
    assertThat(df.count()).isEqualTo(1600);
    assertThat(explain(String.format(JOIN, "a16", "b16")))
        .contains("grouping=off: scan.preserve-data-grouping is false");
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void plainScanParallelismFollowsDataNotBucketsByDefault(boolean aqe) {
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    sql(
        "CREATE TABLE IF NOT EXISTS db.plain4 (id BIGINT, v STRING) TBLPROPERTIES ('bucket' ="
            + " '4', 'bucket-key' = 'id', 'source.split.target-size' = '1b')");
    if (rows("SELECT count(*) FROM db.plain4").equals(List.of("0"))) {
      for (int i = 0; i < 8; i++) {
        sql("INSERT INTO db.plain4 SELECT id, 'x' FROM range(%s, %s)", i * 100, i * 100 + 100);
      }
    }
    assertThat(dataFiles(tablePath("db", "plain4")).size()).isGreaterThanOrEqualTo(32);
    Dataset<Row> off = spark.sql("SELECT * FROM db.plain4");
    assertThat(off.count()).isEqualTo(800);
    // a tiny target size: one input partition per live file, many more than the buckets
    assertThat(onlyScan(off).inputRDD().getNumPartitions()).isGreaterThan(4);

    // grouped, Spark runs one task per bucket: why the option is off by default (Spark's
    // autoBucketedScan, on by default, applies to its own file scans and changes nothing here)
    spark.conf().set(GROUPING, "true");
    Dataset<Row> on = spark.sql("SELECT * FROM db.plain4");
    assertThat(on.count()).isEqualTo(800);
    assertThat(onlyScan(on).inputRDD().getNumPartitions()).isEqualTo(4);
  }

  private String layout(Dataset<Row> df) {
    return df.queryExecution().executedPlan().toString();
  }

  @Test
  void precedenceReadOptionOverSessionOverTableOption() {
    sql(
        "CREATE TABLE db.pre (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket'"
            + " = '4', 'scan.preserve-data-grouping' = 'true')");
    sql("INSERT INTO db.pre VALUES (1, 'a'), (2, 'b')");
    assertThat(layout(spark.table("db.pre"))).contains("grouping=on");
    spark.conf().set(GROUPING, "false");
    assertThat(layout(spark.table("db.pre"))).contains("grouping=off");
    spark.conf().set("spark.paimon.*.db.pre.scan.preserve-data-grouping", "true");
    try {
      assertThat(layout(spark.table("db.pre"))).contains("grouping=on");
    } finally {
      spark.conf().unset("spark.paimon.*.db.pre.scan.preserve-data-grouping");
    }
    assertThat(layout(spark.read().option("scan.preserve-data-grouping", "true").table("db.pre")))
        .contains("grouping=on");
    spark.conf().set(GROUPING, "true");
    assertThat(layout(spark.read().option("scan.preserve-data-grouping", "false").table("db.pre")))
        .contains("grouping=off: scan.preserve-data-grouping is false");
  }

  @Test
  void valueIsCapturedWhenTheScanIsCreated() {
    spark.conf().set(GROUPING, "true");
    Dataset<Row> df = spark.sql("SELECT * FROM db.a16");
    df.queryExecution().optimizedPlan(); // the scan is created here
    spark.conf().set(GROUPING, "false");
    assertThat(df.count()).isEqualTo(1600);
    assertThat(onlyScan(df).scan().description()).contains("grouping=on");
    assertThat(layout(spark.sql("SELECT * FROM db.a16"))).contains("grouping=off");
  }

  @Test
  void setAndResetTheHyphenatedKeyAsTheDocsWriteIt() {
    spark.sql("SET spark.paimon.scan.preserve-data-grouping=true;");
    assertThat(spark.conf().get(GROUPING)).isEqualTo("true");
    assertThat(rows("SET spark.paimon.scan.preserve-data-grouping"))
        .containsExactly("spark.paimon.scan.preserve-data-grouping,true");
    assertThat(explain("SELECT * FROM db.a16")).contains("grouping=on");
    spark.sql("RESET spark.paimon.scan.preserve-data-grouping");
    assertThat(spark.conf().getOption(GROUPING).isDefined()).isFalse();
    assertThat(explain("SELECT * FROM db.a16")).contains("grouping=off");
    // the backquoted form works as well
    spark.sql("SET `spark.paimon.scan.preserve-data-grouping` = true");
    assertThat(spark.conf().get(GROUPING)).isEqualTo("true");
  }

  @Test
  void badValueNamesTheOption() {
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .option("scan.preserve-data-grouping", "yes")
                    .table("db.a16")
                    .collectAsList())
        .hasMessageContaining("Invalid value 'yes' for option 'scan.preserve-data-grouping'")
        .hasMessageContaining("expected true or false");
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void compatibleBucketCountsJoinWhenSparkAllowsIt(boolean aqe) {
    List<String> expected = expectedJoin("a16", "b8");
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    Dataset<Row> without = spark.sql(String.format(JOIN, "a16", "b8"));
    assertThat(count(nodes(without), ShuffleExchangeExec.class)).isPositive();

    spark.conf().set("spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled", "true");
    Dataset<Row> df = spark.sql(String.format(JOIN, "a16", "b8"));
    assertThat(count(nodes(df), ShuffleExchangeExec.class)).isZero();
    // Spark combines buckets b and b + 8 of the 16-bucket side: no ordering may be claimed
    assertThat(count(nodes(df), SortExec.class)).isEqualTo(2);
    assertThat(rows(String.format(JOIN, "a16", "b8"))).isEqualTo(expected).hasSize(1500);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void partiallyClusteredDistributionSplitsTheSkewedSide(boolean aqe) {
    if (!spark.catalog().tableExists("db.skewed")) {
      // an append table: one file per bucket per commit, each its own read unit (tiny target)
      sql(
          "CREATE TABLE db.skewed (id BIGINT, v STRING) TBLPROPERTIES ('bucket' = '4',"
              + " 'bucket-key' = 'id', 'source.split.target-size' = '1b')");
      for (int i = 0; i < 6; i++) {
        sql("INSERT INTO db.skewed SELECT id %% 40, CONCAT('s', id) FROM range(0, 400)");
      }
      sql(
          "CREATE TABLE db.small (id BIGINT, w INT) TBLPROPERTIES ('bucket' = '4', 'bucket-key'"
              + " = 'id')");
      sql("INSERT INTO db.small SELECT id, CAST(id AS INT) FROM range(0, 40)");
    }
    String query = "SELECT s.id, s.v, m.w FROM db.skewed s JOIN db.small m ON s.id = m.id";
    spark.conf().set(GROUPING, "false");
    List<String> expected = rows(query);
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    spark
        .conf()
        .set("spark.sql.sources.v2.bucketing.partiallyClusteredDistribution.enabled", "true");
    Dataset<Row> df = spark.sql(query);
    List<SparkPlan> nodes = nodes(df);
    assertThat(count(nodes, ShuffleExchangeExec.class)).isZero();
    List<BatchScanExec> scans =
        nodes.stream()
            .filter(BatchScanExec.class::isInstance)
            .map(BatchScanExec.class::cast)
            .toList();
    assertThat(scans).anyMatch(s -> s.spjParams().applyPartialClustering());
    // the skewed side runs more tasks than it has buckets
    assertThat(scans.stream().mapToInt(s -> s.inputRDD().getNumPartitions()).max().getAsInt())
        .isGreaterThan(4);
    assertThat(rows(query)).isEqualTo(expected).hasSize(2400);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void dynamicPartitionPruningKeepsTheGrouping(boolean aqe) {
    if (!spark.catalog().tableExists("db.fact")) {
      sql(
          "CREATE TABLE db.fact (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt)"
              + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4')");
      sql(
          "INSERT INTO db.fact SELECT id, CONCAT('d', id %% 5), CONCAT('v', id) FROM range(0,"
              + " 500)");
      sql(
          "CREATE TABLE db.dim (id BIGINT, dt STRING, tag STRING) PARTITIONED BY (dt)"
              + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4')");
      sql(
          "INSERT INTO db.dim SELECT id, CONCAT('d', id %% 5), IF(id %% 5 = 1, 'keep', 'drop')"
              + " FROM range(0, 500)");
    }
    String query =
        "SELECT f.id, f.dt, f.v FROM db.fact f JOIN db.dim d ON f.dt = d.dt AND f.id = d.id"
            + " WHERE d.tag = 'keep'";
    List<String> expected = rows(query);
    joinSetup(aqe);
    spark.conf().set("spark.sql.optimizer.dynamicPartitionPruning.reuseBroadcastOnly", "false");
    spark.conf().set(GROUPING, "true");
    Dataset<Row> df = spark.sql(query);
    List<SparkPlan> nodes = nodes(df);
    assertThat(count(nodes, ShuffleExchangeExec.class)).isZero();
    List<BatchScanExec> scans =
        nodes.stream()
            .filter(BatchScanExec.class::isInstance)
            .map(BatchScanExec.class::cast)
            .toList();
    BatchScanExec fact =
        scans.stream().filter(s -> s.scan().description().contains("db.fact")).findFirst().get();
    assertThat(fact.runtimeFilters().isEmpty()).isFalse();
    assertThat(fact.scan().description()).contains("grouping=on: [dt, bucket(4, id)]");
    // one of five partitions is left: its four buckets (Spark adds empty partitions for the rest)
    assertThat(fact.scan().description()).contains("splits=4,");
    assertThat(rows(query)).isEqualTo(expected).hasSize(100);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void joinWithAnUnbucketedTableShufflesOnlyThatSide(boolean aqe) {
    if (!spark.catalog().tableExists("db.loose")) {
      sql("CREATE TABLE db.loose (id BIGINT, w INT)");
      sql("INSERT INTO db.loose SELECT id * 3, CAST(id AS INT) FROM range(0, 700)");
    }
    String query = "SELECT a.id, a.v, b.w FROM db.a16 a JOIN db.loose b ON a.id = b.id";
    List<String> expected = rows(query);
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    spark.conf().set("spark.sql.sources.v2.bucketing.shuffle.enabled", "true");
    try {
      // Spark hashes the other side with the catalog's bucket function: it must match the files
      Dataset<Row> df = spark.sql(query);
      assertThat(count(nodes(df), ShuffleExchangeExec.class)).isEqualTo(1);
      assertThat(rows(query)).isEqualTo(expected).hasSize(534);
    } finally {
      spark.conf().unset("spark.sql.sources.v2.bucketing.shuffle.enabled");
    }
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void v2BucketingOffFallsBack(boolean aqe) {
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    spark.conf().set("spark.sql.sources.v2.bucketing.enabled", "false");
    String query = String.format(JOIN, "a16", "b16");
    assertThat(count(nodes(spark.sql(query)), ShuffleExchangeExec.class)).isEqualTo(2);
    assertThat(explain(query))
        .contains("grouping=off: spark.sql.sources.v2.bucketing.enabled is false");
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void unsupportedLayoutsFallBackWithTheirReason(boolean aqe) {
    if (!spark.catalog().tableExists("db.unaware")) {
      sql("CREATE TABLE db.unaware (id BIGINT, v STRING)");
      sql("INSERT INTO db.unaware SELECT id, 'u' FROM range(0, 100)");
      sql(
          "CREATE TABLE db.composite (id BIGINT, k INT, v STRING) TBLPROPERTIES ('primary-key' ="
              + " 'id,k', 'bucket' = '4')");
      sql("INSERT INTO db.composite SELECT id, 1, 'c' FROM range(0, 100)");
      sql(
          "CREATE TABLE db.rescaled (id BIGINT, dt STRING, v STRING) PARTITIONED BY (dt)"
              + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4')");
      sql("INSERT INTO db.rescaled SELECT id, 'd1', 'r' FROM range(0, 100)");
      sql("ALTER TABLE db.rescaled SET TBLPROPERTIES ('bucket' = '8')");
      sql("INSERT INTO db.rescaled SELECT id, 'd2', 'r' FROM range(0, 100)");
    }
    joinSetup(aqe);
    spark.conf().set(GROUPING, "true");
    assertFallback(
        "SELECT a.id FROM db.unaware a JOIN db.unaware b ON a.id = b.id",
        "bucket-unaware append table",
        100);
    assertFallback(
        "SELECT a.id FROM db.composite a JOIN db.composite b ON a.id = b.id AND a.k = b.k",
        "composite bucket key (id, k)",
        100);
    assertFallback(
        "SELECT a.v FROM db.a16 a JOIN db.b16 b ON a.v = b.v",
        "bucket key id not in the read schema",
        0);
    assertFallback(
        "SELECT a.id FROM db.rescaled a JOIN db.rescaled b ON a.id = b.id AND a.dt = b.dt",
        "selected partitions have different bucket counts [4, 8]",
        200);
    // a filter to partitions of one bucket count groups again
    assertThat(explain("SELECT * FROM db.rescaled WHERE dt = 'd2'"))
        .contains("grouping=on: [dt, bucket(8, id)]");
  }

  private void assertFallback(String query, String reason, long rows) {
    Dataset<Row> df = spark.sql(query);
    assertThat(count(nodes(df), ShuffleExchangeExec.class)).as(query).isPositive();
    assertThat(df.count()).as(query).isEqualTo(rows);
    assertThat(explain(query)).as(query).contains("grouping=off: " + reason);
  }
}

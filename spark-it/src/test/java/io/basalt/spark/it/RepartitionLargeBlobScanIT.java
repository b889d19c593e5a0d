package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.spark.extensions.ScalaInterop;
import io.basalt.spark.extensions.rules.RepartitionLargeBlobScan;
import io.basalt.spark.read.SparkInputPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Ascending$;
import org.apache.spark.sql.catalyst.expressions.NullsFirst$;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.physical.RoundRobinPartitioning;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.adaptive.AQEShuffleReadExec;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.datasources.v2.MicroBatchScanExec;
import org.apache.spark.sql.execution.exchange.Exchange;
import org.apache.spark.sql.execution.exchange.REPARTITION_BY_NUM$;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Option;

/**
 * The {@code RepartitionLargeBlobScan} rule (issue 15 item 3, seed 003 "Repartition Oversized Scan
 * Output"), with adaptive execution on and off. Sizes are the data files on disk, so the expected
 * partition counts come from the files, not from the accessor the rule reads.
 */
class RepartitionLargeBlobScanIT extends SparkTestBase {
  private static final String ENABLED = RepartitionLargeBlobScan.ENABLED;
  private static final String TARGET = "spark.paimon.source.split.target-size";
  private static final String BLOB_OPTIONS =
      "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true', 'blob-field' = 'c'";

  /** 1 KiB of bytes that do not compress, different for each id. */
  private static final String KIB =
      "unhex(concat_ws('', transform(sequence(1, 16), i -> sha2(concat(CAST(id AS STRING), '-',"
          + " CAST(i AS STRING)), 512))))";

  /** A grouped aggregate: Spark plans an exchange, so adaptive execution manages the plan. */
  private static final String AGGREGATE =
      "SELECT id %% 7 AS k, count(*), sum(length(c)) FROM %s GROUP BY id %% 7";

  /** A blob table written as one data file of an even size. */
  private String blobs;

  private long blobBytes;

  @BeforeAll
  void createTables() {
    SparkSession.setActiveSession(spark);
    sql("CREATE DATABASE IF NOT EXISTS db");
    // an even size lets a target of exactly half of it be tried
    for (int rows = 200; blobs == null; rows++) {
      String name = "db.blobs_" + rows;
      sql("CREATE TABLE %s (id BIGINT, c BINARY) TBLPROPERTIES (%s)", name, BLOB_OPTIONS);
      sql("INSERT INTO %s SELECT id, %s FROM range(0, %d, 1, 1)", name, KIB, rows);
      long bytes = dataBytes(name);
      if (bytes % 2 == 0) {
        blobs = name;
        blobBytes = bytes;
      }
    }
    sql("CREATE TABLE db.plain (id BIGINT, c BINARY)");
    sql("INSERT INTO db.plain SELECT id, %s FROM range(0, 200, 1, 1)", KIB);
  }

  @AfterEach
  void resetConf() {
    for (String key :
        List.of(
            ENABLED,
            TARGET,
            "spark.sql.adaptive.enabled",
            "spark.sql.files.maxPartitionBytes",
            "spark.sql.files.openCostInBytes",
            "spark.sql.files.minPartitionNum",
            "spark.sql.autoBroadcastJoinThreshold")) {
      spark.conf().unset(key);
    }
  }

  private void setUp(boolean aqe, long target) {
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    spark.sql("SET " + ENABLED + " = true");
    spark.conf().set(TARGET, String.valueOf(target));
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void anInputPartitionOverTwiceTheTargetGetsAShuffle(boolean aqe) {
    String query = String.format(AGGREGATE, blobs);
    List<String> expected = rows("%s", query);
    long target = blobBytes / 2 - 1; // the one file is 2 x target + 2 bytes
    setUp(aqe, target);
    Dataset<Row> df = spark.sql(query);
    List<SparkPlan> nodes = nodes(df);
    assertThat(df.queryExecution().executedPlan() instanceof AdaptiveSparkPlanExec).isEqualTo(aqe);
    ShuffleExchangeExec shuffle = onlyRoundRobin(nodes);
    assertThat(partitions(shuffle)).isEqualTo(ceil(blobBytes, target)).isEqualTo(3);
    assertThat(shuffle.shuffleOrigin()).isEqualTo(REPARTITION_BY_NUM$.MODULE$);
    assertThat(scanBelow(shuffle).scan().description()).contains(blobs);
    // adaptive execution planned it before creating stages: the shuffle is a stage of its own
    assertThat(stagePlans(df.queryExecution().executedPlan()).contains(shuffle)).isEqualTo(aqe);
    assertThat(rows("%s", query)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void anInputPartitionExactlyAtTwiceTheTargetDoesNot(boolean aqe) {
    setUp(aqe, blobBytes / 2);
    assertThat(roundRobins(nodes(spark.sql(String.format(AGGREGATE, blobs))))).isEmpty();
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void aScanWithoutAnExchangeIsRepartitionedToo(boolean aqe) {
    // no exchange: Spark does not apply adaptive execution, the columnar hook runs the rule
    setUp(aqe, blobBytes / 2 - 1);
    Dataset<Row> df = spark.sql("SELECT id, length(c) FROM " + blobs);
    List<SparkPlan> nodes = nodes(df);
    assertThat(df.queryExecution().executedPlan() instanceof AdaptiveSparkPlanExec).isFalse();
    assertThat(partitions(onlyRoundRobin(nodes))).isEqualTo(3);
    assertThat(df.collectAsList()).hasSize((int) rowCount(blobs));
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void aPrunedBlobColumnStillCounts(boolean aqe) {
    setUp(aqe, blobBytes / 2 - 1);
    Dataset<Row> df = spark.sql("SELECT id % 7, count(*) FROM " + blobs + " GROUP BY id % 7");
    ShuffleExchangeExec shuffle = onlyRoundRobin(nodes(df));
    assertThat(scanBelow(shuffle).scan().readSchema().fieldNames()).containsExactly("id");
    // the files are what they are, whichever columns are read
    assertThat(partitions(shuffle)).isEqualTo(3);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void theBlobFilesOfASplitCountWithItsDataFile(boolean aqe) {
    java.nio.file.Path dir = tablePath("db", blobs.substring("db.".length()));
    long parquet = 0;
    for (String file : dataFiles(dir)) {
      parquet += dir.resolve(file).toFile().length();
    }
    // the values live in .blob files: the data file alone is far below twice the target
    assertThat(blobBytes).isGreaterThan(10 * parquet);
    long target = parquet;
    setUp(aqe, target);
    ShuffleExchangeExec shuffle = onlyRoundRobin(nodes(spark.sql(String.format(AGGREGATE, blobs))));
    assertThat(partitions(shuffle)).isEqualTo(ceil(blobBytes, target)).isGreaterThan(2);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void sizesAreFileSizesNotDecodedSizes(boolean aqe) {
    String table = "db.compressible_" + aqe;
    sql("CREATE TABLE %s (id BIGINT, c BINARY) TBLPROPERTIES (%s)", table, BLOB_OPTIONS);
    sql(
        "INSERT INTO %s SELECT id, CAST(repeat('a', 10000) AS BINARY) FROM range(0, 200, 1, 1)",
        table);
    long file = dataBytes(table);
    long decoded = (Long) sql("SELECT sum(length(c)) FROM %s", table).get(0)[0];
    assertThat(decoded).isEqualTo(2_000_000L);
    // .blob files keep values as they are (as Paimon's do), 16 bytes of framing each, plus the
    // data file: the files are larger than the values, and they are what counts
    assertThat(file).isGreaterThan(decoded + 200 * 16);

    setUp(aqe, file / 2 + 1);
    assertThat(roundRobins(nodes(spark.sql(String.format(AGGREGATE, table))))).isEmpty();

    long target = (file - 1) / 2;
    spark.conf().set(TARGET, String.valueOf(target));
    ShuffleExchangeExec shuffle = onlyRoundRobin(nodes(spark.sql(String.format(AGGREGATE, table))));
    assertThat(partitions(shuffle)).isEqualTo(ceil(file, target)).isEqualTo(3);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void theShuffleIsAddedOnlyWhenItRaisesParallelism(boolean aqe) {
    String table = "db.mixed_" + aqe;
    // write-only: no compaction folds the small files into the big one
    sql(
        "CREATE TABLE %s (id BIGINT, c BINARY) TBLPROPERTIES (%s, 'write-only' = 'true')",
        table, BLOB_OPTIONS);
    sql("INSERT INTO %s SELECT id, %s FROM range(0, 200, 1, 1)", table, KIB);
    long big = dataBytes(table);
    sql("INSERT INTO %s VALUES (1000, X'01')", table);
    long target = big / 2 - 1;
    setUp(aqe, target);
    // every file weighs the 4 mb open cost when packed: one input partition per file
    String query = String.format(AGGREGATE, table);
    assertThat(inputPartitions(query)).hasSize(2);
    long total = dataBytes(table);
    assertThat(ceil(total, target)).isEqualTo(3);
    assertThat(partitions(onlyRoundRobin(nodes(spark.sql(query))))).isEqualTo(3);

    // five input partitions, the big one still over 2 x target, ceil(total / target) = 3 <= 5
    sql("INSERT INTO %s VALUES (1002, X'03')", table);
    sql("INSERT INTO %s VALUES (1003, X'04')", table);
    sql("INSERT INTO %s VALUES (1004, X'05')", table);
    assertThat(inputPartitions(query)).hasSize(5);
    assertThat(ceil(dataBytes(table), target)).isEqualTo(3);
    assertThat(roundRobins(nodes(spark.sql(query)))).isEmpty();
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void theTargetFallsBackToSparkMaxPartitionBytes(boolean aqe) {
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    spark.sql("SET " + ENABLED + " = true");
    String query = String.format(AGGREGATE, blobs);
    // neither set: the default split size, 128 mb, far above this file
    assertThat(roundRobins(nodes(spark.sql(query)))).isEmpty();

    long target = blobBytes / 2 - 1;
    spark.conf().set("spark.sql.files.maxPartitionBytes", String.valueOf(target));
    // open cost and minimum partitions play no part
    spark.conf().set("spark.sql.files.openCostInBytes", String.valueOf(blobBytes * 10));
    spark.conf().set("spark.sql.files.minPartitionNum", "1000");
    assertThat(partitions(onlyRoundRobin(nodes(spark.sql(query))))).isEqualTo(3);

    // source.split.target-size wins over Spark's setting
    spark.conf().set(TARGET, String.valueOf(blobBytes / 2));
    assertThat(roundRobins(nodes(spark.sql(query)))).isEmpty();
    // also as a read option
    spark.conf().unset(TARGET);
    Dataset<Row> read =
        spark
            .read()
            .option("source.split.target-size", String.valueOf(blobBytes / 2))
            .table(blobs)
            .groupBy("id")
            .count();
    assertThat(roundRobins(nodes(read))).isEmpty();
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void arrayAndMapBlobColumnsCount(boolean aqe) {
    String array = "db.array_blobs_" + aqe;
    String map = "db.map_blobs_" + aqe;
    sql("CREATE TABLE %s (id BIGINT, c ARRAY<BINARY>) TBLPROPERTIES (%s)", array, BLOB_OPTIONS);
    sql("INSERT INTO %s SELECT id, array(%s, %s) FROM range(0, 100, 1, 1)", array, KIB, KIB);
    sql("CREATE TABLE %s (id BIGINT, c MAP<STRING, BINARY>) TBLPROPERTIES (%s)", map, BLOB_OPTIONS);
    sql("INSERT INTO %s SELECT id, map('k', %s) FROM range(0, 200, 1, 1)", map, KIB);
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    spark.sql("SET " + ENABLED + " = true");
    for (String table : List.of(array, map)) {
      long target = dataBytes(table) / 3;
      spark.conf().set(TARGET, String.valueOf(target));
      String query = "SELECT id %% 7, count(*), max(size(c)) FROM " + table + " GROUP BY id %% 7";
      assertThat(partitions(onlyRoundRobin(nodes(spark.sql(String.format(query))))))
          .isEqualTo(ceil(dataBytes(table), target));
    }
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void tablesWithoutBlobColumnsAreSkipped(boolean aqe) {
    setUp(aqe, 1024);
    assertThat(roundRobins(nodes(spark.sql(String.format(AGGREGATE, "db.plain"))))).isEmpty();
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void offTheRuleLeavesThePlanAsItIs(boolean aqe) {
    String query = String.format(AGGREGATE, blobs);
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
    spark.conf().set(TARGET, "1024");
    String unset = explain(query);
    spark.sql("SET " + ENABLED + " = false");
    assertThat(explain(query)).isEqualTo(unset).doesNotContain("RoundRobinPartitioning");
    assertThat(roundRobins(nodes(spark.sql(query)))).isEmpty();
    spark.sql("SET " + ENABLED + " = true");
    assertThat(explain(query)).contains("RoundRobinPartitioning");
  }

  @Test
  void offOrOnAnotherTableTheRulePlansNothing() {
    spark.conf().set(TARGET, "1024");
    RepartitionLargeBlobScan rule = new RepartitionLargeBlobScan();

    BatchScanExec off = freshScan(String.format(AGGREGATE, blobs));
    assertThat(rule.apply(off)).isSameAs(off);
    assertThat(partitionsPlanned(off)).isFalse();

    spark.sql("SET " + ENABLED + " = true");
    BatchScanExec plain = freshScan(String.format(AGGREGATE, "db.plain"));
    assertThat(rule.apply(plain)).isSameAs(plain);
    assertThat(partitionsPlanned(plain)).isFalse();

    // the check above means something: a blob table's partitions are planned and sized
    BatchScanExec blob = freshScan(String.format(AGGREGATE, blobs));
    assertThat(rule.apply(blob)).isInstanceOf(ShuffleExchangeExec.class);
    assertThat(partitionsPlanned(blob)).isTrue();
  }

  @Test
  void aScanThatReportsAnOrderingIsLeftAlone() {
    spark.sql("SET " + ENABLED + " = true");
    spark.conf().set(TARGET, "1024");
    BatchScanExec scan = freshScan(String.format(AGGREGATE, blobs));
    SortOrder byId =
        new SortOrder(
            scan.output().head(),
            Ascending$.MODULE$,
            NullsFirst$.MODULE$,
            ScalaInterop.toScala(List.of()));
    BatchScanExec ordered =
        new BatchScanExec(
            scan.output(),
            scan.scan(),
            scan.runtimeFilters(),
            Option.apply(ScalaInterop.toScala(List.of(byId))),
            scan.table(),
            scan.spjParams());
    assertThat(new RepartitionLargeBlobScan().apply(ordered)).isSameAs(ordered);
    assertThat(partitionsPlanned(ordered)).isFalse();
  }

  @Test
  void anInvalidSwitchFailsQueriesOfBasaltTablesOnly() {
    spark.sql("SET " + ENABLED + " = maybe");
    assertThatThrownBy(() -> spark.sql(String.format(AGGREGATE, blobs)).collectAsList())
        .satisfies(
            e ->
                assertThat(basaltCause(e).getMessage())
                    .isEqualTo(
                        "Invalid value 'maybe' for session conf '"
                            + ENABLED
                            + "': expected true or false. Fix: SET "
                            + ENABLED
                            + " = true to repartition oversized blob scans, or false to leave"
                            + " them."));
    // other queries run, and the SET that fixes it too
    assertThat(sql("SELECT count(*) FROM range(0, 10)").get(0)[0]).isEqualTo(10L);
    spark.sql("SET " + ENABLED + " = false");
    assertThat(sql("SELECT count(*) FROM %s", blobs).get(0)[0]).isEqualTo(rowCount(blobs));
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void anExchangeDirectlyAboveTheScanIsLeftAlone(boolean aqe) {
    setUp(aqe, blobBytes / 2 - 1);
    // the user's repartition
    Dataset<Row> hinted = spark.sql("SELECT /*+ REPARTITION(2) */ id, length(c) FROM " + blobs);
    List<SparkPlan> nodes = nodes(hinted);
    assertThat(partitions(onlyRoundRobin(nodes))).isEqualTo(2);
    assertThat(hinted.collectAsList()).hasSize((int) rowCount(blobs));
    Dataset<Row> byColumn =
        spark.table(blobs).repartition(3, org.apache.spark.sql.functions.col("id"));
    assertThat(roundRobins(nodes(byColumn))).isEmpty();
    assertThat(count(nodes(byColumn), Exchange.class)).isEqualTo(1);
    // Spark's own: a sort-merge join shuffles both sides by the key right above their scans
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    Dataset<Row> join =
        spark.sql("SELECT b.id, length(p.c) FROM " + blobs + " b JOIN db.plain p ON b.id = p.id");
    List<SparkPlan> joinNodes = nodes(join);
    assertThat(roundRobins(joinNodes)).isEmpty();
    assertThat(count(joinNodes, ShuffleExchangeExec.class)).isEqualTo(2);
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void scansBelowInputFileFunctionsAreLeftAlone(boolean aqe) {
    setUp(aqe, blobBytes / 2 - 1);
    String plain = "SELECT k, count(*) FROM (SELECT id %% 7 AS k, %s AS f FROM %s) GROUP BY k";
    assertThat(roundRobins(nodes(spark.sql(String.format(plain, "length(c)", blobs))))).hasSize(1);
    for (String function :
        List.of("input_file_name()", "input_file_block_start()", "input_file_block_length()")) {
      String query =
          "SELECT k, count(*), max(f) FROM (SELECT id %% 7 AS k, %s AS f FROM %s) GROUP BY k";
      Dataset<Row> df = spark.sql(String.format(query, function, blobs));
      assertThat(roundRobins(nodes(df))).as(function).isEmpty();
    }
  }

  @ParameterizedTest(name = "aqe={0}")
  @ValueSource(booleans = {true, false})
  void theShuffleSitsAboveTheDynamicPruningFilter(boolean aqe) {
    String fact = "db.fact_blobs_" + aqe;
    String dims = "db.dims_" + aqe;
    sql(
        "CREATE TABLE %s (id BIGINT, c BINARY, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES (%s)",
        fact, BLOB_OPTIONS);
    sql("INSERT INTO %s SELECT id, %s, CONCAT('d', id %% 4) FROM range(0, 200, 1, 1)", fact, KIB);
    sql("CREATE TABLE %s (dt STRING, tag STRING)", dims);
    sql(
        "INSERT INTO %s VALUES ('d0', 'drop'), ('d1', 'keep'), ('d2', 'drop'), ('d3', 'drop')",
        dims);
    String query =
        String.format(
            "SELECT f.id, length(f.c) FROM %s f JOIN %s d ON f.dt = d.dt WHERE d.tag = 'keep'",
            fact, dims);
    List<String> expected = rows("%s", query);
    assertThat(expected).hasSize(50);

    long target = 8192;
    setUp(aqe, target);
    Dataset<Row> df = spark.sql(query);
    List<SparkPlan> nodes = nodes(df);
    ShuffleExchangeExec shuffle = onlyRoundRobin(nodes);
    // planned statically, from all four partitions' files, before pruning
    assertThat(partitions(shuffle)).isEqualTo(ceil(dataBytes(fact), target));
    BatchScanExec scan = scanBelow(shuffle);
    assertThat(scan.scan().description()).contains(fact);
    assertThat(scan.runtimeFilters().mkString()).contains("dynamicpruning");
    // the runtime filter reached the scan: one partition's file is left
    assertThat(scan.scan().description()).contains("splits=1,");
    assertThat(rows("%s", query)).isEqualTo(expected);
  }

  /**
   * Basalt has no micro-batch scan yet, so the streaming guard is shown on plans built here: a
   * micro-batch scan of a blob table, and a batch scan whose plan is marked streaming.
   */
  @Test
  void streamingPlansAreLeftAlone() {
    spark.sql("SET " + ENABLED + " = true");
    spark.conf().set(TARGET, "1024");
    RepartitionLargeBlobScan rule = new RepartitionLargeBlobScan();
    BatchScanExec batch = freshScan(String.format(AGGREGATE, blobs));
    @SuppressWarnings({"unchecked", "rawtypes"})
    MicroBatchScanExec microBatch =
        new MicroBatchScanExec(
            (scala.collection.immutable.Seq) batch.output(),
            batch.scan(),
            new UnreadStream(),
            null,
            null,
            Option.empty(),
            Option.empty());
    assertThat(rule.apply(microBatch)).isSameAs(microBatch);

    LogicalPlan streaming = spark.readStream().format("rate").load().queryExecution().analyzed();
    assertThat(streaming.isStreaming()).isTrue();
    batch.setLogicalLink(streaming);
    assertThat(rule.apply(batch)).isSameAs(batch);
    assertThat(partitionsPlanned(batch)).isFalse();

    // the same scan in a batch plan is repartitioned
    BatchScanExec control = freshScan(String.format(AGGREGATE, blobs));
    assertThat(rule.apply(control)).isInstanceOf(ShuffleExchangeExec.class);
  }

  // ---- helpers ----

  private long dataBytes(String table) {
    String[] parts = table.split("\\.");
    java.nio.file.Path dir = tablePath(parts[0], parts[1]);
    long bytes = 0;
    for (String file : filesUnder(dir)) {
      if (file.endsWith(".parquet") || file.endsWith(".blob")) {
        try {
          bytes += Files.size(dir.resolve(file));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return bytes;
  }

  private long rowCount(String table) {
    return (Long) sql("SELECT count(*) FROM %s", table).get(0)[0];
  }

  private static long ceil(long bytes, long target) {
    return (bytes + target - 1) / target;
  }

  private String explain(String query) {
    return spark
        .sql("EXPLAIN " + query)
        .collectAsList()
        .get(0)
        .getString(0)
        .replaceAll("#\\d+", "#_")
        .replaceAll("plan_id=\\d+", "plan_id=_");
  }

  /** The input partitions of the query's single Basalt scan, as Spark planned it. */
  private List<InputPartition> inputPartitions(String query) {
    BatchScanExec scan = freshScan(query);
    List<InputPartition> result = new ArrayList<>();
    scala.collection.Iterator<InputPartition> it = scan.inputPartitions().iterator();
    while (it.hasNext()) {
      InputPartition partition = it.next();
      assertThat(partition).isInstanceOf(SparkInputPartition.class);
      result.add(partition);
    }
    return result;
  }

  /**
   * A copy of the query's planned Basalt scan that has not asked for its input partitions yet
   * (Spark's own planning asks the original, to decide whether it is columnar).
   */
  private BatchScanExec freshScan(String query) {
    List<SparkPlan> all = new ArrayList<>();
    flatten(spark.sql(query).queryExecution().sparkPlan(), all);
    BatchScanExec scan =
        all.stream()
            .filter(BatchScanExec.class::isInstance)
            .map(BatchScanExec.class::cast)
            .findFirst()
            .orElseThrow();
    return new BatchScanExec(
        scan.output(),
        scan.scan(),
        scan.runtimeFilters(),
        scan.ordering(),
        scan.table(),
        scan.spjParams());
  }

  /** Whether Spark's lazily computed input partitions of {@code scan} were computed. */
  private static boolean partitionsPlanned(BatchScanExec scan) {
    try {
      Field field = BatchScanExec.class.getDeclaredField("inputPartitions");
      field.setAccessible(true);
      return field.get(scan) != null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("BatchScanExec has no inputPartitions field", e);
    }
  }

  /** The nodes of the executed (final, when adaptive) plan of {@code df}, run first. */
  private static List<SparkPlan> nodes(Dataset<Row> df) {
    df.collectAsList();
    List<SparkPlan> result = new ArrayList<>();
    flatten(df.queryExecution().executedPlan(), result);
    return result;
  }

  private static void flatten(SparkPlan plan, List<SparkPlan> result) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      flatten(adaptive.executedPlan(), result);
      return;
    }
    if (plan instanceof QueryStageExec stage) {
      flatten(stage.plan(), result);
      return;
    }
    result.add(plan);
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      flatten(children.next(), result);
    }
  }

  /** The plans of the query stages of an adaptive plan, nested ones included. */
  private static List<SparkPlan> stagePlans(SparkPlan plan) {
    List<SparkPlan> result = new ArrayList<>();
    List<SparkPlan> todo = new ArrayList<>(List.of(plan));
    while (!todo.isEmpty()) {
      SparkPlan node = todo.remove(todo.size() - 1);
      if (node instanceof AdaptiveSparkPlanExec adaptive) {
        todo.add(adaptive.executedPlan());
      } else if (node instanceof QueryStageExec stage) {
        result.add(stage.plan());
        todo.add(stage.plan());
      } else {
        todo.addAll(ScalaInterop.toJava(node.children()));
      }
    }
    return result;
  }

  private static List<ShuffleExchangeExec> roundRobins(List<SparkPlan> nodes) {
    return nodes.stream()
        .filter(ShuffleExchangeExec.class::isInstance)
        .map(ShuffleExchangeExec.class::cast)
        .filter(s -> s.outputPartitioning() instanceof RoundRobinPartitioning)
        .toList();
  }

  private static ShuffleExchangeExec onlyRoundRobin(List<SparkPlan> nodes) {
    List<ShuffleExchangeExec> shuffles = roundRobins(nodes);
    assertThat(shuffles).hasSize(1);
    return shuffles.get(0);
  }

  private static long count(List<SparkPlan> nodes, Class<?> type) {
    return nodes.stream().filter(type::isInstance).count();
  }

  private static long partitions(ShuffleExchangeExec shuffle) {
    return shuffle.outputPartitioning().numPartitions();
  }

  /** The scan right below {@code shuffle}: only codegen and columnar-to-row nodes in between. */
  private static BatchScanExec scanBelow(SparkPlan shuffle) {
    SparkPlan node = shuffle.children().head();
    while (true) {
      if (node instanceof QueryStageExec stage) {
        node = stage.plan();
      } else if (node instanceof BatchScanExec scan) {
        return scan;
      } else {
        assertThat(node)
            .isInstanceOfAny(
                WholeStageCodegenExec.class,
                InputAdapter.class,
                ColumnarToRowExec.class,
                org.apache.spark.sql.execution.ProjectExec.class,
                AQEShuffleReadExec.class);
        node = node.children().head();
      }
    }
  }

  private static Throwable basaltCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BasaltException) {
        return t;
      }
    }
    throw new AssertionError("no BasaltException in the causes of " + e, e);
  }

  /** A stream the rule must never read. */
  private static final class UnreadStream implements MicroBatchStream {
    @Override
    public Offset latestOffset() {
      throw new UnsupportedOperationException("the rule read the stream's offsets");
    }

    @Override
    public InputPartition[] planInputPartitions(Offset start, Offset end) {
      throw new UnsupportedOperationException("the rule planned the stream");
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
      throw new UnsupportedOperationException("the rule created a reader");
    }

    @Override
    public Offset initialOffset() {
      throw new UnsupportedOperationException("the rule read the stream's offsets");
    }

    @Override
    public Offset deserializeOffset(String json) {
      throw new UnsupportedOperationException("the rule read the stream's offsets");
    }

    @Override
    public void commit(Offset end) {
      throw new UnsupportedOperationException("the rule committed the stream");
    }

    @Override
    public void stop() {}
  }
}

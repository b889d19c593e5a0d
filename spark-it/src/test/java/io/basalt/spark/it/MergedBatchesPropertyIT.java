package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.spark.it.MergeModel.Engine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A property test of the columnar merged read ({@code spark.basalt.read.merged-batches.enabled}):
 * random rounds of rows of every kind, written into tables of every merge engine, with and without
 * deletion vectors, compacted now and then and evolved once, read through the columnar merge, the
 * row path and an independent model ({@link MergeModel}), which must all agree, for projections,
 * filters and metadata columns, at batch sizes that split merged buckets anywhere. The seed is
 * printed; set {@code -Dproperty.seed=N} to replay a failure.
 */
class MergedBatchesPropertyIT extends SparkTestBase {
  private static final String ROW_PATH = "spark.basalt.read.merged-batches.enabled";
  private static final String BATCH_SIZE = "spark.sql.parquet.columnarReaderBatchSize";
  private static final int KEYS = 150;
  private static final int ROUNDS = 6;
  // levels of several small files (key ranges that one run holds alone), row groups of a few rows
  private static final String SMALL_FILES =
      ", 'target-file-size' = '4kb', 'parquet.block.size' = '2048', 'parquet.page.size' = '512'";

  private long seed;
  private Random rnd;

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS mbp");
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    seed = Long.getLong("property.seed", System.nanoTime());
    System.out.println("MergedBatchesPropertyIT seed: " + seed + " (-Dproperty.seed=" + seed + ")");
    rnd = new Random(seed);
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(ROW_PATH);
    spark.conf().unset(BATCH_SIZE);
  }

  @Test
  void deduplicate() {
    check("dedup", Engine.DEDUPLICATE, "");
  }

  @Test
  void deduplicateWithSequenceField() {
    check("dedup_seq", Engine.DEDUPLICATE_SEQUENCE, ", 'sequence.field' = 's'");
  }

  @Test
  void deduplicateWithDeletionVectors() {
    check("dedup_dv", Engine.DEDUPLICATE, ", 'deletion-vectors.enabled' = 'true'");
  }

  @Test
  void firstRow() {
    check("first", Engine.FIRST_ROW, ", 'merge-engine' = 'first-row'");
  }

  @Test
  void partialUpdate() {
    check(
        "partial",
        Engine.PARTIAL_UPDATE,
        ", 'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'");
  }

  @Test
  void partialUpdateWithDeletionVectors() {
    check(
        "partial_dv",
        Engine.PARTIAL_UPDATE,
        ", 'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true',"
            + " 'deletion-vectors.enabled' = 'true'");
  }

  @Test
  void partialUpdateWithSequenceGroup() {
    check(
        "partial_group",
        Engine.PARTIAL_UPDATE_GROUP,
        ", 'merge-engine' = 'partial-update', 'fields.s.sequence-group' = 'i,l'");
  }

  @Test
  void aggregation() {
    check(
        "agg",
        Engine.AGGREGATION,
        ", 'merge-engine' = 'aggregation', 'fields.i.aggregate-function' = 'sum',"
            + " 'fields.l.aggregate-function' = 'max', 'fields.d9.aggregate-function' = 'min',"
            + " 'fields.str.aggregate-function' = 'last_value'");
  }

  /**
   * One merged bucket of exactly two batches of rows, then of one row, then of none (every key
   * deleted), read at batch sizes on and around those counts, on deduplicate and partial-update.
   */
  @Test
  void batchBoundaries() {
    int batch = 4 + rnd.nextInt(29);
    for (Engine engine : List.of(Engine.DEDUPLICATE, Engine.PARTIAL_UPDATE)) {
      String name = "edges_" + engine.name().toLowerCase();
      String table = "mbp." + name;
      String options =
          engine == Engine.DEDUPLICATE
              ? ""
              : ", 'merge-engine' = 'partial-update',"
                  + " 'partial-update.remove-record-on-delete' = 'true'";
      sql(
          "CREATE TABLE %s (%s) PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'p,k',"
              + " 'bucket' = '1'%s)",
          table, PropertyTables.COLUMNS, options);
      MergeModel model = new MergeModel(engine);
      int columns = PropertyTables.NAMES.size();
      // two runs over every key: one section that merges
      for (RowKind kind : List.of(RowKind.INSERT, RowKind.UPDATE_AFTER)) {
        PropertyTables.Writer writer =
            new PropertyTables.Writer(spark, tablePath("mbp", name), table);
        for (int k = 0; k < 2 * batch; k++) {
          Object[] row = PropertyTables.row(rnd, "a", k, rnd.nextInt(100), columns, false);
          writer.write(kind, row);
          model.apply(kind, row);
        }
        writer.commit();
      }
      checkBoundary(table, model, 2 * batch, batch - 1, batch, batch + 1, 2 * batch);
      deleteKeys(name, model, 1, 2 * batch);
      checkBoundary(table, model, 1, 1, 2, batch);
      deleteKeys(name, model, 0, 1);
      checkBoundary(table, model, 0, 1, batch);
    }
  }

  private void deleteKeys(String name, MergeModel model, int from, int to) {
    PropertyTables.Writer writer =
        new PropertyTables.Writer(spark, tablePath("mbp", name), "mbp." + name);
    for (int k = from; k < to; k++) {
      Object[] row = new Object[PropertyTables.NAMES.size()];
      row[PropertyTables.P] = "a";
      row[PropertyTables.K] = k;
      writer.write(RowKind.DELETE, row);
      model.apply(RowKind.DELETE, row);
    }
    writer.commit();
  }

  /** The merged bucket of {@code rows} rows reads as the model's at each of {@code batchSizes}. */
  private void checkBoundary(String table, MergeModel model, int rows, int... batchSizes) {
    int[] every = new int[PropertyTables.NAMES.size()];
    for (int i = 0; i < every.length; i++) {
      every[i] = i;
    }
    String query = "SELECT " + String.join(", ", PropertyTables.NAMES) + " FROM " + table;
    List<String> expected = PropertyTables.expected(model.rows(), every, row -> true);
    assertThat(expected).hasSize(rows);
    for (int size : batchSizes) {
      spark.conf().set(BATCH_SIZE, Integer.toString(size));
      assertThat(metric(executedScan(query), "mergedSplits")).isEqualTo(1);
      assertThat(PropertyTables.query(spark, query))
          .as("%s at batch size %s (seed %s)", table, size, seed)
          .isEqualTo(expected);
    }
    spark.conf().unset(BATCH_SIZE);
    spark.conf().set(ROW_PATH, "false");
    assertThat(PropertyTables.query(spark, query))
        .as("row path (seed %s)", seed)
        .isEqualTo(expected);
    spark.conf().unset(ROW_PATH);
  }

  /**
   * Writes {@link #ROUNDS} random rounds into {@code mbp.<name>}, compacting after round 2 and
   * evolving the schema before round 3 (a column added, one renamed, {@code i} widened to BIGINT,
   * {@code d9} to DECIMAL(20,2)), then checks every query shape through both read paths and the
   * model.
   */
  private void check(String name, Engine engine, String properties) {
    String table = "mbp." + name;
    sql(
        "CREATE TABLE %s (%s) PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'p,k',"
            + " 'bucket' = '2', 'num-sorted-run.compaction-trigger' = '3'%s%s)",
        table, PropertyTables.COLUMNS, SMALL_FILES, properties);
    MergeModel model = new MergeModel(engine);
    List<String> names = new ArrayList<>(PropertyTables.NAMES);
    boolean widened = false;
    for (int round = 0; round < ROUNDS; round++) {
      if (round == 3) {
        sql("ALTER TABLE %s ADD COLUMN extra INT", table);
        sql("ALTER TABLE %s RENAME COLUMN dbl TO dbl2", table);
        sql("ALTER TABLE %s ALTER COLUMN i TYPE BIGINT", table);
        // DECIMAL(9,2) files (stored as INT32) read as DECIMAL(20,2) (a byte array per value)
        sql("ALTER TABLE %s ALTER COLUMN d9 TYPE DECIMAL(20,2)", table);
        names.set(PropertyTables.DBL, "dbl2");
        names.add("extra");
        model.addColumn();
        widened = true;
      }
      writeRound(table, engine, model, round, names.size(), widened);
      if (round == 2) {
        sql("CALL sys.compact(table => '%s')", table);
      }
      if (round == 1 || round == ROUNDS - 1) {
        checkQueries(table, engine, round, model, names);
      }
    }
  }

  private void writeRound(
      String table, Engine engine, MergeModel model, int round, int columns, boolean widened) {
    PropertyTables.Writer writer =
        new PropertyTables.Writer(spark, tablePath("mbp", table.substring(4)), table);
    List<Integer> keys = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      keys.add(k);
    }
    Collections.shuffle(keys, rnd);
    int count = round == 0 ? KEYS : rnd.nextInt(KEYS / 2) + 1;
    if (round <= 1) {
      // the lower half of the keys, then the upper: two runs of disjoint key ranges, each read
      // without merging where the engine keeps lone versions (lone retractions dropped)
      int half = round;
      keys = keys.stream().filter(k -> k / (KEYS / 2) == half).toList();
      count = round == 0 ? keys.size() : rnd.nextInt(keys.size()) + 1;
    } else if (round >= 4) {
      // a narrow key range: elsewhere one run (of small files) holds every key, read unmerged
      int from = rnd.nextInt(KEYS - KEYS / 8);
      keys = keys.stream().filter(k -> k >= from && k < from + KEYS / 8).toList();
      count = keys.size();
    }
    for (int k : keys.subList(0, count)) {
      String p = rnd.nextBoolean() ? "a" : "b";
      RowKind kind = kind(engine, round);
      long s = sequence(engine, model, p, k);
      Object[] row = PropertyTables.row(rnd, p, k, s, columns, widened);
      writer.write(kind, row);
      model.apply(kind, row);
    }
    writer.commit();
  }

  /** The kind of a random row: retractions only where the engine takes them. */
  private RowKind kind(Engine engine, int round) {
    int dice = round == 0 ? 99 : rnd.nextInt(100);
    return switch (engine) {
      case DEDUPLICATE, DEDUPLICATE_SEQUENCE ->
          dice < 15 ? RowKind.DELETE : dice < 20 ? RowKind.UPDATE_BEFORE : RowKind.UPDATE_AFTER;
      case PARTIAL_UPDATE -> dice < 15 ? RowKind.DELETE : RowKind.UPDATE_AFTER;
      default -> dice < 50 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
    };
  }

  /**
   * The sequence value of a new version: random, so versions arrive out of order, but above the s
   * of a delete that removed the key (compaction may drop such a delete, after which an older
   * version would reappear: a case where Paimon's answer depends on compaction).
   */
  private long sequence(Engine engine, MergeModel model, String p, int k) {
    long floor = model.floor(p + "/" + k);
    return floor + 1 + rnd.nextInt(engine == Engine.DEDUPLICATE_SEQUENCE ? 50 : 1000);
  }

  private void checkQueries(
      String table, Engine engine, int round, MergeModel model, List<String> names) {
    String all = String.join(", ", names);
    int[] every = new int[names.size()];
    for (int i = 0; i < every.length; i++) {
      every[i] = i;
    }
    int str = PropertyTables.STR;
    int k = PropertyTables.K;
    checkQuery(model, "SELECT " + all + " FROM " + table, every, row -> true, true);
    checkQuery(
        model,
        String.format("SELECT str, k, arr, %s FROM %s", names.get(PropertyTables.DBL), table),
        new int[] {str, k, 14, PropertyTables.DBL},
        row -> true,
        false);
    checkQuery(model, "SELECT k, p FROM " + table, new int[] {k, 0}, row -> true, false);
    checkQuery(
        model,
        "SELECT i, m, st, d38 FROM " + table,
        new int[] {PropertyTables.I, 15, 16, PropertyTables.D38},
        row -> true,
        false);
    int bound = KEYS / 3;
    checkQuery(
        model,
        String.format("SELECT %s FROM %s WHERE k < %d", all, table, bound),
        every,
        row -> (Integer) row[k] < bound,
        false);
    checkQuery(
        model,
        String.format("SELECT %s FROM %s WHERE i > 0", all, table),
        every,
        row -> row[PropertyTables.I] != null && ((Number) row[PropertyTables.I]).longValue() > 0,
        false);
    checkQuery(
        model,
        String.format("SELECT k, p, str FROM %s WHERE str IS NULL AND p = 'a'", table),
        new int[] {k, 0, str},
        row -> row[str] == null && "a".equals(row[0]),
        false);
    checkQuery(
        model,
        String.format("SELECT k, p FROM %s WHERE k IN (1, 7, %d)", table, KEYS - 2),
        new int[] {k, 0},
        row -> List.of(1, 7, KEYS - 2).contains(row[k]),
        false);
    checkQuery(model, "SELECT p FROM " + table, new int[] {0}, row -> true, false);
    // nested fields pruned by Spark: the struct's second and third fields only
    String pruned = "SELECT k, st.y, st.z FROM " + table + " WHERE p = 'b'";
    List<String> nested = new ArrayList<>();
    for (Object[] row : model.rows()) {
      if ("b".equals(row[0])) {
        org.apache.spark.sql.Row st = (org.apache.spark.sql.Row) row[16];
        nested.add(
            PropertyTables.render(
                new Object[] {row[k], st == null ? null : st.get(1), st == null ? null : st.get(2)},
                new int[] {0, 1, 2}));
      }
    }
    nested.sort(null);
    assertThat(PropertyTables.query(spark, pruned)).as("columnar: " + pruned).isEqualTo(nested);
    spark.conf().set(ROW_PATH, "false");
    assertThat(PropertyTables.query(spark, pruned)).as("row path: " + pruned).isEqualTo(nested);
    spark.conf().unset(ROW_PATH);
    // a pushed limit: any rows of the table, but only merged ones
    List<String> some =
        PropertyTables.query(spark, "SELECT " + all + " FROM " + table + " LIMIT 9");
    assertThat(PropertyTables.expected(model.rows(), every, row -> true)).containsAll(some);
    assertThat(some).hasSize(Math.min(9, model.rows().size()));
    assertThat(PropertyTables.query(spark, "SELECT count(*) FROM " + table))
        .containsExactly(Integer.toString(model.rows().size()));
    BatchScanExec scan = executedScan("SELECT " + all + " FROM " + table);
    System.out.printf(
        "%s: columnar=%s mergedSplits=%d unmergedSections=%d rowsMerged=%d%n",
        table,
        scan.supportsColumnar(),
        metric(scan, "mergedSplits"),
        metric(scan, "unmergedSections"),
        metric(scan, "rowsMerged"));
    if (!table.endsWith("_dv")
        && model.rows().size() > 0
        && List.of(Engine.DEDUPLICATE, Engine.FIRST_ROW).contains(engine)
        && round == 1) {
      assertThat(metric(scan, "unmergedSections")).as("unmerged sections of " + table).isPositive();
    }
    if (round == ROUNDS - 1) {
      checkMetadataColumns(table);
    }
  }

  /**
   * The rows of {@code query}: the columnar read (at Spark's batch size and, with {@code
   * smallBatches}, at small ones), the row path and the model's must be equal.
   */
  private void checkQuery(
      MergeModel model,
      String query,
      int[] columns,
      Predicate<Object[]> filter,
      boolean smallBatches) {
    List<String> expected = PropertyTables.expected(model.rows(), columns, filter);
    String context = query + " (seed " + seed + ")";
    assertThat(PropertyTables.query(spark, query)).as("columnar: " + context).isEqualTo(expected);
    if (smallBatches) {
      for (String size : new String[] {"1", "7"}) {
        spark.conf().set(BATCH_SIZE, size);
        assertThat(PropertyTables.query(spark, query))
            .as("columnar, batch size %s: %s", size, context)
            .isEqualTo(expected);
      }
      spark.conf().unset(BATCH_SIZE);
    }
    spark.conf().set(ROW_PATH, "false");
    assertThat(PropertyTables.query(spark, query)).as("row path: " + context).isEqualTo(expected);
    spark.conf().unset(ROW_PATH);
  }

  /** Metadata columns read the same through both paths (or fail the same way). */
  private void checkMetadataColumns(String table) {
    for (String column :
        List.of(
            "__paimon_bucket",
            "__paimon_partition",
            "__paimon_file_path",
            "__paimon_row_index",
            "_SEQUENCE_NUMBER",
            "_ROW_ID")) {
      String query = String.format("SELECT k, p, %s FROM %s", column, table);
      String columnar = outcome(query);
      spark.conf().set(ROW_PATH, "false");
      String rows = outcome(query);
      spark.conf().unset(ROW_PATH);
      System.out.printf("%s: %s%n", query, columnar.lines().findFirst().orElse("(no rows)"));
      assertThat(columnar).as("%s (seed %s)", query, seed).isEqualTo(rows);
    }
  }

  /** The rows of {@code query}, or its error's message. */
  private String outcome(String query) {
    try {
      return String.join("\n", PropertyTables.query(spark, query));
    } catch (RuntimeException e) {
      return "error: " + e.getMessage();
    }
  }
}

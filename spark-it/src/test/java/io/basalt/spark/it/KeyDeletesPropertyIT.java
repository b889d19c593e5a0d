package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.spark.it.MergeModel.Engine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A property test of DELETE on the merge engines that cannot retract a key (first-row,
 * partial-update and aggregation without a remove option), where a DELETE removes every version of
 * each deleted key from the files holding them: random writes, random DELETE predicates on the key,
 * a value or the partition, compactions between them, with and without deletion vectors; the table
 * must hold exactly the model's rows ({@link MergeModel}) through both read paths. The seed is
 * printed; set {@code -Dproperty.seed=N} to replay a failure.
 */
class KeyDeletesPropertyIT extends SparkTestBase {
  private static final String ROW_PATH = "spark.basalt.read.merged-batches.enabled";
  private static final int KEYS = 120;
  private static final int ROUNDS = 6;

  private long seed;
  private Random rnd;

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS kdp");
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    seed = Long.getLong("property.seed", System.nanoTime());
    System.out.println("KeyDeletesPropertyIT seed: " + seed + " (-Dproperty.seed=" + seed + ")");
    rnd = new Random(seed);
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset(ROW_PATH);
  }

  @Test
  void firstRow() {
    check("first", Engine.FIRST_ROW, "'merge-engine' = 'first-row'");
  }

  @Test
  void firstRowWithDeletionVectors() {
    check(
        "first_dv",
        Engine.FIRST_ROW,
        "'merge-engine' = 'first-row', 'deletion-vectors.enabled' = 'true'");
  }

  @Test
  void partialUpdate() {
    check("partial", Engine.PARTIAL_UPDATE, "'merge-engine' = 'partial-update'");
  }

  @Test
  void partialUpdateWithDeletionVectors() {
    check(
        "partial_dv",
        Engine.PARTIAL_UPDATE,
        "'merge-engine' = 'partial-update', 'deletion-vectors.enabled' = 'true'");
  }

  @Test
  void partialUpdateWithSequenceGroupAndDeletionVectors() {
    check(
        "partial_group_dv",
        Engine.PARTIAL_UPDATE_GROUP,
        "'merge-engine' = 'partial-update', 'fields.s.sequence-group' = 'i,l',"
            + " 'deletion-vectors.enabled' = 'true'");
  }

  @Test
  void aggregation() {
    check("agg", Engine.AGGREGATION, AGGREGATION);
  }

  @Test
  void aggregationWithDeletionVectors() {
    check("agg_dv", Engine.AGGREGATION, AGGREGATION + ", 'deletion-vectors.enabled' = 'true'");
  }

  private static final String AGGREGATION =
      "'merge-engine' = 'aggregation', 'fields.i.aggregate-function' = 'sum',"
          + " 'fields.l.aggregate-function' = 'max', 'fields.d9.aggregate-function' = 'min',"
          + " 'fields.str.aggregate-function' = 'last_value'";

  /** A DELETE predicate in SQL and the same predicate over a model row. */
  private record Condition(String sql, Predicate<Object[]> test) {}

  private void check(String name, Engine engine, String properties) {
    String table = "kdp." + name;
    sql(
        "CREATE TABLE %s (%s) PARTITIONED BY (p) TBLPROPERTIES ('primary-key' = 'p,k',"
            + " 'bucket' = '2', 'num-sorted-run.compaction-trigger' = '3',"
            + " 'target-file-size' = '16kb', 'parquet.block.size' = '2048', %s)",
        table, PropertyTables.COLUMNS, properties);
    MergeModel model = new MergeModel(engine);
    List<String> names = new ArrayList<>(PropertyTables.NAMES);
    for (int round = 0; round < ROUNDS; round++) {
      if (round == 3) {
        // files of the old schema are rewritten (or marked) through the new one
        sql("ALTER TABLE %s ADD COLUMN extra INT", table);
        sql("ALTER TABLE %s RENAME COLUMN dbl TO dbl2", table);
        names.set(PropertyTables.DBL, "dbl2");
        names.add("extra");
        model.addColumn();
      }
      int[] every = new int[names.size()];
      for (int i = 0; i < every.length; i++) {
        every[i] = i;
      }
      String select = "SELECT " + String.join(", ", names) + " FROM " + table;
      writeRound(table, name, model, round, names.size());
      if (round == 2 || round == 4) {
        sql("CALL sys.compact(table => '%s')", table);
      }
      Condition condition = condition();
      sql("DELETE FROM %s WHERE %s", table, condition.sql());
      List<String> deleted = new ArrayList<>();
      for (Object[] row : model.rows()) {
        if (condition.test().test(row)) {
          deleted.add(MergeModel.key(row));
        }
      }
      deleted.forEach(model::remove);
      List<String> expected = PropertyTables.expected(model.rows(), every, row -> true);
      String context =
          String.format("round %d, after DELETE WHERE %s (seed %s)", round, condition.sql(), seed);
      assertThat(PropertyTables.query(spark, select))
          .as("columnar, " + context)
          .isEqualTo(expected);
      spark.conf().set(ROW_PATH, "false");
      assertThat(PropertyTables.query(spark, select))
          .as("row path, " + context)
          .isEqualTo(expected);
      spark.conf().unset(ROW_PATH);
    }
  }

  private void writeRound(String table, String name, MergeModel model, int round, int columns) {
    PropertyTables.Writer writer = new PropertyTables.Writer(spark, tablePath("kdp", name), table);
    List<Integer> keys = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      keys.add(k);
    }
    Collections.shuffle(keys, rnd);
    int count = round == 0 ? KEYS : rnd.nextInt(KEYS / 2) + 1;
    for (int k : keys.subList(0, count)) {
      String p = rnd.nextBoolean() ? "a" : "b";
      Object[] row = PropertyTables.row(rnd, p, k, rnd.nextInt(1000), columns, false);
      RowKind kind = rnd.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER;
      writer.write(kind, row);
      model.apply(kind, row);
    }
    writer.commit();
  }

  /** A random DELETE predicate: on the key, a value, the partition, or a mix. */
  private Condition condition() {
    int k = PropertyTables.K;
    int i = PropertyTables.I;
    int x = rnd.nextInt(KEYS);
    int m = 3 + rnd.nextInt(5);
    int r = rnd.nextInt(m);
    return switch (rnd.nextInt(7)) {
      case 0 -> new Condition("k % " + m + " = " + r, row -> (Integer) row[k] % m == r);
      case 1 ->
          new Condition(
              "k BETWEEN " + x + " AND " + (x + 10),
              row -> (Integer) row[k] >= x && (Integer) row[k] <= x + 10);
      case 2 -> new Condition("p = 'a'", row -> "a".equals(row[0]));
      case 3 ->
          new Condition("p = 'b' AND k < " + x, row -> "b".equals(row[0]) && (Integer) row[k] < x);
      case 4 -> {
        int v = rnd.nextInt(1000) - 300;
        yield new Condition("i > " + v, row -> row[i] != null && ((Number) row[i]).longValue() > v);
      }
      case 5 ->
          new Condition(
              "str IS NULL AND k % 2 = 0",
              row -> row[PropertyTables.STR] == null && (Integer) row[k] % 2 == 0);
      default ->
          new Condition(
              "l IS NOT NULL AND k % 3 = 1",
              row -> row[PropertyTables.L] != null && (Integer) row[k] % 3 == 1);
    };
  }
}

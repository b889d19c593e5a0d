package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** INSERT INTO / INSERT OVERWRITE (whole, static, dynamic) and SELECT with pruning and filters. */
class WriteIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS w");
  }

  @AfterEach
  void resetOverwriteMode() {
    spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
  }

  private void createOrders(String name) {
    sql(
        "CREATE TABLE w.%s (dt STRING, id INT, amount BIGINT, note STRING) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')",
        name);
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  @Test
  void insertIntoAndOverwriteTheWholeTable() {
    createOrders("whole");
    sql("INSERT INTO w.whole VALUES ('d1', 1, 10, 'a'), ('d2', 2, 20, 'b')");
    sql("INSERT INTO w.whole VALUES ('d3', 3, 30, 'c')");
    assertThat(rows("SELECT * FROM w.whole"))
        .containsExactly("d1,1,10,a", "d2,2,20,b", "d3,3,30,c");

    sql("INSERT OVERWRITE w.whole VALUES ('d9', 9, 90, 'z')");
    assertThat(rows("SELECT * FROM w.whole")).containsExactly("d9,9,90,z");
  }

  @Test
  void staticPartitionOverwriteReplacesOnlyThatPartition() {
    createOrders("static_ow");
    sql(
        "INSERT INTO w.static_ow VALUES ('d1', 1, 10, 'a'), ('d1', 2, 11, 'b'), ('d2', 1, 20, 'c')");
    sql("INSERT OVERWRITE w.static_ow PARTITION (dt = 'd1') VALUES (5, 50, 'e')");
    assertThat(rows("SELECT * FROM w.static_ow")).containsExactly("d1,5,50,e", "d2,1,20,c");

    // overwriting a partition with no rows empties it
    sql("INSERT OVERWRITE w.static_ow PARTITION (dt = 'd2') SELECT 1, 1L, 'x' WHERE false");
    assertThat(rows("SELECT * FROM w.static_ow")).containsExactly("d1,5,50,e");
  }

  @Test
  void dynamicOverwriteReplacesOnlyPartitionsInTheNewData() {
    createOrders("dynamic_ow");
    sql(
        "INSERT INTO w.dynamic_ow VALUES ('d1', 1, 10, 'a'), ('d2', 1, 20, 'b'), ('d2', 2, 21,"
            + " 'c'), ('d3', 1, 30, 'd')");
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    sql("INSERT OVERWRITE w.dynamic_ow VALUES ('d2', 7, 70, 'n'), ('d4', 1, 40, 'm')");
    assertThat(rows("SELECT * FROM w.dynamic_ow"))
        .containsExactly("d1,1,10,a", "d2,7,70,n", "d3,1,30,d", "d4,1,40,m");

    // static mode (the default) with no PARTITION clause replaces the whole table
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", "static");
    sql("INSERT OVERWRITE w.dynamic_ow VALUES ('d5', 1, 50, 'x')");
    assertThat(rows("SELECT * FROM w.dynamic_ow")).containsExactly("d5,1,50,x");
  }

  @Test
  void selectWithPruningAndFiltersMatchesSparkOnTheSameRows() {
    createOrders("filtered");
    String values =
        String.join(
            ", ",
            IntStream.range(0, 60)
                .mapToObj(
                    i ->
                        String.format(
                            "('d%d', %d, %d, %s)",
                            i % 3, i, i * 7 % 100, i % 5 == 0 ? "NULL" : "'n" + i + "'"))
                .toList());
    sql(
        "CREATE TEMPORARY VIEW filtered_src AS SELECT * FROM VALUES %s AS t(dt, id, amount, note)",
        values);
    sql("INSERT INTO w.filtered SELECT dt, id, CAST(amount AS BIGINT), note FROM filtered_src");
    // two commits so filters see several files per bucket
    sql(
        "INSERT INTO w.filtered SELECT dt, id, CAST(amount AS BIGINT), note FROM filtered_src WHERE id < 10");

    String[] queries = {
      "SELECT * FROM %s",
      "SELECT id FROM %s",
      "SELECT note, dt FROM %s",
      "SELECT * FROM %s WHERE dt = 'd1'",
      "SELECT id, amount FROM %s WHERE dt IN ('d0', 'd2') AND id > 30",
      "SELECT * FROM %s WHERE id = 42",
      "SELECT * FROM %s WHERE dt = 'd0' AND id = 42",
      "SELECT note FROM %s WHERE amount >= 50 AND amount < 70",
      "SELECT id FROM %s WHERE note IS NULL",
      "SELECT id FROM %s WHERE note = 'n7' OR id = 11",
      "SELECT dt, count(*), sum(amount) FROM %s GROUP BY dt",
      "SELECT count(*) FROM %s WHERE dt = 'nope'",
    };
    for (String query : queries) {
      String table = String.format(query, "w.filtered");
      String oracle =
          String.format(
              query, "(SELECT dt, id, CAST(amount AS BIGINT) amount, note FROM filtered_src)");
      assertThat(rows(table)).as(table).isEqualTo(sorted(rows(oracle)));
    }
  }

  @Test
  void appendTableKeepsEveryRowIncludingDuplicates() {
    sql("CREATE TABLE w.log (ts BIGINT, msg STRING)");
    assertThat(rows("SHOW TBLPROPERTIES w.log")).noneMatch(p -> p.startsWith("primary-key,"));
    String values = "(1, 'a'), (1, 'a'), (2, 'b')";
    sql("INSERT INTO w.log VALUES %s", values);
    sql("INSERT INTO w.log VALUES %s", values);
    List<String> once = rows("SELECT * FROM VALUES %s AS t(ts, msg)", values);
    List<String> expected = new ArrayList<>(once);
    expected.addAll(once);
    assertThat(rows("SELECT * FROM w.log")).isEqualTo(sorted(expected));
    assertThat(dirsUnder(tablePath("w", "log"), "bucket-")).containsExactly("bucket-0");
  }

  @Test
  void partitionedAppendTableOverwritesOnePartition() {
    sql("CREATE TABLE w.plog (dt STRING, msg STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO w.plog VALUES ('d1', 'a'), ('d1', 'a'), ('d2', 'b')");
    sql("INSERT OVERWRITE w.plog PARTITION (dt = 'd1') VALUES ('c')");
    assertThat(rows("SELECT * FROM w.plog")).containsExactly("d1,c", "d2,b");
  }
}

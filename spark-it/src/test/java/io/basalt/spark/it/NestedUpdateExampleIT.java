package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The issue's {@code order_wide} example: a wide aggregation table assembled from {@code orders}
 * and {@code sub_orders} with {@code nested_update} keyed by {@code sub_order_id}, on a
 * merge-on-read, a compacting and a deletion-vector table, and again after a full compaction.
 * Arrays are compared sorted by the nested key, since the order of elements written in one commit
 * is not defined.
 */
class NestedUpdateExampleIT extends SparkTestBase {

  @BeforeAll
  void createSources() {
    sql("CREATE DATABASE IF NOT EXISTS nu");
    sql(
        "CREATE TABLE nu.orders (order_id BIGINT, user_name STRING, address STRING) TBLPROPERTIES"
            + " ('primary-key' = 'order_id', 'bucket' = '1')");
    sql(
        "CREATE TABLE nu.sub_orders (order_id BIGINT, sub_order_id INT, product_name STRING,"
            + " price BIGINT) TBLPROPERTIES ('primary-key' = 'order_id,sub_order_id',"
            + " 'bucket' = '1')");
    sql("INSERT INTO nu.orders VALUES (1, 'Alice', 'add1'), (2, 'Bob', 'add2')");
    sql(
        "INSERT INTO nu.sub_orders VALUES (1, 11, 'apple', 10), (1, 12, 'banana', 20),"
            + " (2, 21, 'cherry', 30), (2, 22, 'peach', 40)");
  }

  @Test
  void wideTableFromOrdersAndSubOrders() {
    for (int i = 0; i < MergeEngineTestSupport.VARIANTS.size(); i++) {
      String table = "nu.order_wide" + MergeEngineTestSupport.suffix(i);
      sql(
          "CREATE TABLE %s (order_id BIGINT, user_name STRING, address STRING,"
              + " sub_orders ARRAY<STRUCT<sub_order_id: INT, product_name: STRING, price: BIGINT>>)"
              + " TBLPROPERTIES ('primary-key' = 'order_id', 'bucket' = '1',"
              + " 'merge-engine' = 'aggregation',"
              + " 'fields.sub_orders.aggregate-function' = 'nested_update',"
              + " 'fields.sub_orders.nested-key' = 'sub_order_id', %s)",
          table, MergeEngineTestSupport.VARIANTS.get(i));
      sql(
          "INSERT INTO %s SELECT order_id, user_name, address, CAST(NULL AS"
              + " ARRAY<STRUCT<sub_order_id: INT, product_name: STRING, price: BIGINT>>)"
              + " FROM nu.orders UNION ALL SELECT order_id, CAST(NULL AS STRING),"
              + " CAST(NULL AS STRING), ARRAY(NAMED_STRUCT('sub_order_id', sub_order_id,"
              + " 'product_name', product_name, 'price', price)) FROM nu.sub_orders",
          table);
      // a later commit updates one sub-order: it keeps its place in the array
      sql(
          "INSERT INTO %s SELECT 2, CAST(NULL AS STRING), CAST(NULL AS STRING),"
              + " ARRAY(NAMED_STRUCT('sub_order_id', 21, 'product_name', 'cherry', 'price',"
              + " CAST(50 AS BIGINT)))",
          table);
      String[] expected = {
        "1,Alice,add1,11:apple:10;12:banana:20", "2,Bob,add2,21:cherry:50;22:peach:40"
      };
      assertThat(wide(table)).as(table).containsExactly(expected);
      sql("CALL sys.compact(table => '%s')", table);
      assertThat(wide(table)).as(table + " compacted").containsExactly(expected);
    }
  }

  @Test
  void updatedElementKeepsItsPlaceAndNewKeysAreAppended() {
    sql(
        "CREATE TABLE nu.ordered (id INT, items ARRAY<STRUCT<k: INT, v: STRING>>) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '1', 'merge-engine' = 'aggregation',"
            + " 'fields.items.aggregate-function' = 'nested_update',"
            + " 'fields.items.nested-key' = 'k')");
    sql("INSERT INTO nu.ordered VALUES (1, ARRAY(NAMED_STRUCT('k', 3, 'v', 'c')))");
    sql("INSERT INTO nu.ordered VALUES (1, ARRAY(NAMED_STRUCT('k', 1, 'v', 'a')))");
    sql("INSERT INTO nu.ordered VALUES (1, ARRAY(NAMED_STRUCT('k', 3, 'v', 'c2')))");
    assertThat(
            rows(
                "SELECT id, array_join(transform(items, s -> concat_ws(':', s.k, s.v)), ';')"
                    + " FROM nu.ordered"))
        .containsExactly("1,3:c2;1:a");
  }

  /**
   * Seed 001 as written: sub_orders has a primary key, receives its five rows (21 twice) in one
   * statement, and order_wide is filled from it in one statement. The elements keep the seed's
   * order whatever the source's bucket count (before, a two-bucket source gave (22, 21) and a
   * four-bucket one (12, 11)); Paimon's own nested_update would order them by key hash.
   */
  @Test
  void seedOrderWhateverTheSourceBuckets() {
    for (int buckets : new int[] {1, 2, 4}) {
      String sub = "nu.seed_sub_" + buckets;
      String wide = "nu.seed_wide_" + buckets;
      sql(
          "CREATE TABLE %s (order_id BIGINT, sub_order_id INT, product_name STRING, price BIGINT)"
              + " TBLPROPERTIES ('primary-key' = 'order_id,sub_order_id', 'bucket' = '%s')",
          sub, buckets);
      sql(
          "INSERT INTO %s VALUES (1, 11, 'apple', 10), (1, 12, 'banana', 20), (2, 21, 'cherry',"
              + " 30), (2, 22, 'peach', 40), (2, 21, 'cherry', 50)",
          sub);
      sql(
          "CREATE TABLE %s (order_id BIGINT, user_name STRING, address STRING, sub_orders"
              + " ARRAY<STRUCT<sub_order_id: BIGINT, product_name: STRING, price: BIGINT>>)"
              + " TBLPROPERTIES ('primary-key' = 'order_id', 'bucket' = '%s', 'merge-engine' ="
              + " 'aggregation', 'fields.sub_orders.aggregate-function' = 'nested_update',"
              + " 'fields.sub_orders.nested-key' = 'sub_order_id')",
          wide, buckets);
      sql(
          "INSERT INTO %s SELECT order_id, user_name, address, CAST(NULL AS"
              + " ARRAY<STRUCT<sub_order_id: BIGINT, product_name: STRING, price: BIGINT>>) FROM"
              + " nu.orders UNION ALL SELECT order_id, CAST(NULL AS STRING), CAST(NULL AS"
              + " STRING), ARRAY(NAMED_STRUCT('sub_order_id', CAST(sub_order_id AS BIGINT),"
              + " 'product_name', product_name, 'price', price)) FROM %s",
          wide, sub);
      assertThat(
              rows(
                  "SELECT order_id, user_name, address, array_join(transform(sub_orders, s ->"
                      + " concat_ws(':', s.sub_order_id, s.product_name, s.price)), ';') FROM %s",
                  wide))
          .as(wide)
          .containsExactly(
              "1,Alice,add1,11:apple:10;12:banana:20", "2,Bob,add2,21:cherry:50;22:peach:40");
    }
  }

  private java.util.List<String> wide(String table) {
    return rows(
        "SELECT order_id, user_name, address, array_join(transform(array_sort(sub_orders),"
            + " s -> concat_ws(':', s.sub_order_id, s.product_name, s.price)), ';') FROM %s",
        table);
  }
}

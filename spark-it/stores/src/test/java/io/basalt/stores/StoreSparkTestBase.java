package io.basalt.stores;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One store (started by the subclass) and one local[2] SparkSession per test class, with the Basalt
 * catalog {@code paimon} warehoused on that store, installed as a user installs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreSparkTestBase {
  protected SparkSession spark;
  protected String warehouse;

  /** Starts the store; returns the warehouse URI on it. */
  protected abstract String startStore() throws Exception;

  /** The Hadoop settings that reach the store. */
  protected abstract Map<String, String> hadoopConf();

  protected abstract void stopStore() throws Exception;

  /** Further session settings of a test class. */
  protected Map<String, String> sessionConf() {
    return Map.of();
  }

  @BeforeAll
  void startSpark() throws Exception {
    warehouse = startStore();
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName(getClass().getSimpleName())
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
            .config("spark.sql.catalog.paimon.warehouse", warehouse)
            .config("spark.sql.defaultCatalog", "paimon")
            .config(
                "spark.sql.extensions", "io.basalt.spark.extensions.BasaltSparkSessionExtensions");
    hadoopConf().forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    sessionConf().forEach(builder::config);
    spark = builder.getOrCreate();
  }

  @AfterAll
  void stopSpark() throws Exception {
    try {
      if (spark != null) {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
      }
      FileSystem.closeAll();
    } finally {
      stopStore();
    }
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
}

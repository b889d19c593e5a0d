package io.basalt.spark.shell;

import org.apache.spark.sql.SparkSession;

/** A small local session with Spark's built-in catalog, for tests that run real statements. */
final class LocalSpark {
  private LocalSpark() {}

  static SparkSession start() {
    return SparkSession.builder()
        .master("local[1]")
        .appName("basalt-sql-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate();
  }
}

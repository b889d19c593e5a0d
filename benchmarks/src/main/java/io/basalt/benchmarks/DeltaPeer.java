package io.basalt.benchmarks;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * Delta Lake 4.1 through {@code spark_catalog} = DeltaCatalog: tables partitioned by dt with
 * deletion vectors enabled, at a location under the work directory. Delta has no bucketing, so the
 * join shuffles. Upserts are {@code MERGE INTO}, which writes deletion vectors for updated rows.
 */
final class DeltaPeer implements PeerSystem {
  private static final String ORDERS = "spark_catalog.default.delta_orders";

  private final SparkSession spark;
  private final Path dir;

  DeltaPeer(SparkSession spark, Path workDir) {
    this.spark = spark;
    this.dir = workDir.resolve("delta");
  }

  @Override
  public String label() {
    return "Delta 4.1 DV";
  }

  @Override
  public String id() {
    return "delta";
  }

  @Override
  public void reset() {
    recreate(ORDERS, "orders");
  }

  private void recreate(String table, String directory) {
    // the tables are external (LOCATION), so DROP leaves the files: delete them too
    spark.sql("DROP TABLE IF EXISTS " + table);
    Path location = dir.resolve(directory);
    Harness.deleteRecursively(location);
    spark.sql(
        String.format(
            "CREATE TABLE %s (%s) USING delta PARTITIONED BY (dt) LOCATION '%s'"
                + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')",
            table, PeerData.COLUMNS, location.toUri()));
  }

  @Override
  public void load(String sourceView) {
    spark.sql("INSERT INTO " + ORDERS + " SELECT " + PeerData.COLUMN_LIST + " FROM " + sourceView);
  }

  @Override
  public void upsert(String batchView, int round) {
    spark.sql(PeerSystems.mergeInto(ORDERS, batchView));
  }

  @Override
  public String orders() {
    return ORDERS;
  }

  @Override
  public long currentVersion() {
    return spark.sql("DESCRIBE HISTORY " + ORDERS + " LIMIT 1").first().getLong(0);
  }

  @Override
  public String ordersAsOf(long version) {
    return ORDERS + " VERSION AS OF " + version;
  }

  @Override
  public void createJoinTables(String leftView, String rightView) {
    recreate(joinLeft(), "join_left");
    recreate(joinRight(), "join_right");
    spark.sql("INSERT INTO " + joinLeft() + " SELECT * FROM " + leftView);
    spark.sql("INSERT INTO " + joinRight() + " SELECT * FROM " + rightView);
  }

  @Override
  public String joinLeft() {
    return "spark_catalog.default.delta_join_left";
  }

  @Override
  public String joinRight() {
    return "spark_catalog.default.delta_join_right";
  }
}

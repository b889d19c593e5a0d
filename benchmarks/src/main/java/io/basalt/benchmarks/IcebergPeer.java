package io.basalt.benchmarks;

import org.apache.spark.sql.SparkSession;

/**
 * Apache Iceberg 1.12 in a Hadoop catalog ({@code iceberg}), format version 2 with merge-on-read
 * deletes, updates and merges (position delete files), partitioned by dt and {@code bucket(16,
 * order_id)}. Upserts are {@code MERGE INTO}.
 */
final class IcebergPeer implements PeerSystem {
  static final String CATALOG = "iceberg";
  private static final String ORDERS = CATALOG + ".bench.orders";
  private static final String PROPERTIES =
      "USING iceberg PARTITIONED BY (dt, bucket(16, order_id)) TBLPROPERTIES ("
          + "'format-version' = '2', 'write.delete.mode' = 'merge-on-read',"
          + " 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read')";

  private final SparkSession spark;

  IcebergPeer(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public String label() {
    return "Iceberg 1.12 MoR";
  }

  @Override
  public String id() {
    return "iceberg";
  }

  @Override
  public void reset() {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + CATALOG + ".bench");
    recreate(ORDERS);
  }

  private void recreate(String table) {
    // a Hadoop catalog deletes the table's directory on DROP ... PURGE
    spark.sql("DROP TABLE IF EXISTS " + table + " PURGE");
    spark.sql("CREATE TABLE " + table + " (" + PeerData.COLUMNS + ") " + PROPERTIES);
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
    return spark
        .sql("SELECT snapshot_id FROM " + ORDERS + ".snapshots ORDER BY committed_at DESC LIMIT 1")
        .first()
        .getLong(0);
  }

  @Override
  public String ordersAsOf(long version) {
    return ORDERS + " VERSION AS OF " + version;
  }

  @Override
  public void createJoinTables(String leftView, String rightView) {
    recreate(joinLeft());
    recreate(joinRight());
    spark.sql("INSERT INTO " + joinLeft() + " SELECT * FROM " + leftView);
    spark.sql("INSERT INTO " + joinRight() + " SELECT * FROM " + rightView);
  }

  @Override
  public String joinLeft() {
    return CATALOG + ".bench.join_left";
  }

  @Override
  public String joinRight() {
    return CATALOG + ".bench.join_right";
  }
}

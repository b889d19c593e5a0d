package io.basalt.benchmarks;

import org.apache.spark.sql.SparkSession;

/**
 * Basalt in its own catalog ({@code paimon}): primary key (dt, order_id), 16 buckets, PARTITIONED
 * BY dt, optionally with deletion vectors. An upsert is a plain {@code INSERT INTO}: the primary
 * key makes it one, and only the batch is written.
 */
final class BasaltPeer implements PeerSystem {
  static final String CATALOG = "paimon";

  private final SparkSession spark;
  private final boolean deletionVectors;
  private final String database;

  BasaltPeer(SparkSession spark, boolean deletionVectors) {
    this.spark = spark;
    this.deletionVectors = deletionVectors;
    // one database per variant, so the two never share a table
    this.database = CATALOG + (deletionVectors ? ".bench_dv" : ".bench");
  }

  @Override
  public String label() {
    return deletionVectors ? "Basalt DV" : "Basalt";
  }

  @Override
  public String id() {
    return deletionVectors ? "basalt-dv" : "basalt";
  }

  @Override
  public void reset() {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + database);
    recreate(orders());
  }

  private void recreate(String table) {
    spark.sql("DROP TABLE IF EXISTS " + table);
    spark.sql(
        String.format(
            "CREATE TABLE %s (%s) PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,order_id',"
                + " 'bucket' = '16'%s)",
            table,
            PeerData.COLUMNS,
            deletionVectors ? ", 'deletion-vectors.enabled' = 'true'" : ""));
  }

  @Override
  public void load(String sourceView) {
    insert(orders(), sourceView);
  }

  private void insert(String table, String view) {
    spark.sql("INSERT INTO " + table + " SELECT " + PeerData.COLUMN_LIST + " FROM " + view);
  }

  @Override
  public void upsert(String batchView, int round) {
    insert(orders(), batchView);
  }

  @Override
  public String orders() {
    return database + ".orders";
  }

  @Override
  public long currentVersion() {
    return spark
        .sql("SELECT max(snapshot_id) FROM " + database + ".`orders$snapshots`")
        .first()
        .getLong(0);
  }

  @Override
  public String ordersAsOf(long version) {
    return orders() + " VERSION AS OF " + version;
  }

  @Override
  public void createJoinTables(String leftView, String rightView) {
    recreate(joinLeft());
    recreate(joinRight());
    insert(joinLeft(), leftView);
    insert(joinRight(), rightView);
  }

  @Override
  public String joinLeft() {
    return database + ".join_left";
  }

  @Override
  public String joinRight() {
    return database + ".join_right";
  }
}

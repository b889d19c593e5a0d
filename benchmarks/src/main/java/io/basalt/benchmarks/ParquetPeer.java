package io.basalt.benchmarks;

import java.nio.file.Path;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Plain Spark Parquet, the baseline: directories partitioned by dt, read by path. It has no keys,
 * so an upsert round is a full rewrite into a new directory (the previous version anti-joined with
 * the batch's keys, plus the batch): a 10% update spread over every date touches every partition,
 * so rewriting only the affected partitions would rewrite all of them anyway. Old directories stay,
 * which makes time travel a read of the directory written by the bulk load.
 */
final class ParquetPeer implements PeerSystem {
  private final SparkSession spark;
  private final Path dir;
  private int round;

  ParquetPeer(SparkSession spark, Path workDir) {
    this.spark = spark;
    this.dir = workDir.resolve("parquet");
  }

  @Override
  public String label() {
    return "Parquet";
  }

  @Override
  public String id() {
    return "parquet";
  }

  @Override
  public void reset() {
    Harness.deleteRecursively(dir);
    round = 0;
  }

  @Override
  public void load(String sourceView) {
    write(spark.table(sourceView).selectExpr(PeerData.COLUMN_LIST.split(", ")), version(0));
  }

  @Override
  public void upsert(String batchView, int upsertRound) {
    String previous = relation(version(round));
    String rewritten =
        String.format(
            "SELECT %s FROM %s o LEFT ANTI JOIN %s b ON o.dt = b.dt AND o.order_id = b.order_id"
                + " UNION ALL SELECT %s FROM %s",
            PeerData.COLUMN_LIST, previous, batchView, PeerData.COLUMN_LIST, batchView);
    write(spark.sql(rewritten), version(upsertRound));
    round = upsertRound;
  }

  private void write(org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rows, Path target) {
    rows.write().mode(SaveMode.ErrorIfExists).partitionBy("dt").parquet(target.toString());
  }

  private Path version(int r) {
    return dir.resolve("round-" + r);
  }

  /**
   * A path-based relation; the session turns partition type inference off, so dt stays a string.
   */
  private static String relation(Path path) {
    return "parquet.`" + path.toUri() + "`";
  }

  @Override
  public String orders() {
    return relation(version(round));
  }

  @Override
  public long currentVersion() {
    return round;
  }

  @Override
  public String ordersAsOf(long version) {
    return relation(version(Math.toIntExact(version)));
  }

  @Override
  public void createJoinTables(String leftView, String rightView) {
    write(spark.table(leftView), dir.resolve("join-left"));
    write(spark.table(rightView), dir.resolve("join-right"));
  }

  @Override
  public String joinLeft() {
    return relation(dir.resolve("join-left"));
  }

  @Override
  public String joinRight() {
    return relation(dir.resolve("join-right"));
  }
}

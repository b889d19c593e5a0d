package io.basalt.benchmarks;

import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The anchor workload's data and queries (issue 19): an {@code orders} table keyed by (dt,
 * order_id) over four dates, and the batches of the upsert rounds. Every value is a deterministic
 * function of the key and the round that last wrote it, so any system's table can be checked
 * against any other's.
 */
final class PeerData {
  /** Columns in table order; every system's orders table has exactly these. */
  static final String COLUMNS =
      "order_id BIGINT NOT NULL, dt STRING NOT NULL, customer_id BIGINT, amount DOUBLE,"
          + " status STRING, ts TIMESTAMP";

  static final String COLUMN_LIST = "order_id, dt, customer_id, amount, status, ts";

  static final int DATES = 4;

  /**
   * Count and order-independent checksum of a whole relation; the full scan of the read steps. The
   * sum is a decimal so it cannot overflow, and the result is exact, so systems compare equal.
   */
  static final String SCAN_SQL =
      "SELECT count(*), sum(CAST(xxhash64(" + COLUMN_LIST + ") AS DECIMAL(38, 0))) FROM %s";

  /** The point lookup: every column of one key, whatever date it is in. */
  static final String LOOKUP_SQL = "SELECT " + COLUMN_LIST + " FROM %s WHERE order_id = %d";

  /** A join of the two join tables on the whole key, with a checksum over both sides. */
  static final String JOIN_SQL =
      "SELECT count(*), sum(CAST(xxhash64(l.order_id, l.dt, l.amount, r.status) AS DECIMAL(38, 0)))"
          + " FROM %s l JOIN %s r ON l.dt = r.dt AND l.order_id = r.order_id";

  private PeerData() {}

  /**
   * The row of key {@code id} as written by round {@code round} (0 is the bulk load), as Spark SQL
   * expressions over a column {@code id}. The date follows the key, so an update never moves a row.
   */
  private static String[] row(int round) {
    return new String[] {
      "id AS order_id",
      String.format(Locale.ROOT, "concat('2026-01-0', CAST(1 + id %% %d AS STRING)) AS dt", DATES),
      "id * 31 % 100003 AS customer_id",
      String.format(
          Locale.ROOT, "CAST((id * 7919 + %d) %% 100000 AS DOUBLE) / 100 AS amount", round),
      String.format(Locale.ROOT, "'%s' AS status", round == 0 ? "new" : "updated-" + round),
      String.format(
          Locale.ROOT, "timestamp_seconds(1767225600 + id %% 86400000 + %d) AS ts", round),
    };
  }

  /** The bulk load: keys {@code 0 <= id < rows}. */
  static Dataset<Row> orders(SparkSession spark, long rows) {
    return spark.range(rows).selectExpr(row(0));
  }

  /**
   * Round {@code round}'s batch: 10% of the bulk-loaded keys updated (the tenth with {@code id % 10
   * == (round - 1) % 10}) and 2% new keys, after every key of earlier rounds.
   */
  static Dataset<Row> batch(SparkSession spark, long rows, int round) {
    long tenth = (round - 1) % 10;
    Dataset<Row> updates = spark.range(rows / 10).selectExpr("id * 10 + " + tenth + " AS id");
    long newKeys = newKeysPerRound(rows);
    long firstNew = rows + (round - 1) * newKeys;
    Dataset<Row> inserts = spark.range(firstNew, firstNew + newKeys).toDF("id");
    return updates.union(inserts).selectExpr(row(round));
  }

  static long newKeysPerRound(long rows) {
    return rows / 50;
  }

  /** The rows of a batch of {@code rows} generated rows. */
  static long batchRows(long rows) {
    return rows / 10 + newKeysPerRound(rows);
  }

  /** A bulk-loaded key that round 2 updates, so the lookups before and after upserts differ. */
  static long lookupKey(long rows) {
    return Math.max(0, (rows / 2) / 10 * 10 + 1);
  }
}

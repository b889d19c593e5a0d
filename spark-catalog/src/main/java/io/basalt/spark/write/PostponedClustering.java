package io.basalt.spark.write;

import io.basalt.bucket.PostponedBucket;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;

/**
 * How Spark clusters the rows of a write to a postponed-bucket table, after the partition columns.
 * Each key must reach one task, so that one writer stamps its versions in write order.
 *
 * <ul>
 *   <li>Into {@code bucket-postpone}: by the primary key columns.
 *   <li>Straight into numbered buckets: each partition has its own count, but one clustering must
 *       serve them all, so rows are clustered by {@code bucket(G, key)} with G the greatest common
 *       divisor of every partition's count and {@code postpone.default-bucket-num}. A row's bucket
 *       in a partition of N buckets is {@code |h % N|}, and {@code |h % G| = ||h % N| % G|} when G
 *       divides N, so every bucket of every partition is written by exactly one task.
 * </ul>
 */
final class PostponedClustering {
  private PostponedClustering() {}

  static List<Expression> of(FileStoreTable table, boolean fixedBuckets) {
    List<Expression> clustering = new ArrayList<>();
    if (fixedBuckets) {
      clustering.add(SparkWrite.bucketTransform(table, commonDivisor(table)));
    } else {
      for (String key : table.schema().trimmedPrimaryKeys()) {
        clustering.add(Expressions.identity(key));
      }
    }
    return clustering;
  }

  /** The greatest common divisor of the bucket counts a fixed-bucket write may use. */
  static int commonDivisor(FileStoreTable table) {
    int divisor = PostponedBucket.bucketCount(table, 0);
    Optional<Snapshot> latest = table.latestSnapshot();
    if (latest.isEmpty()) {
      return divisor;
    }
    for (ManifestEntry entry : table.newScan().liveEntries(latest.get())) {
      if (entry.bucket() != PostponedBucket.BUCKET && divisor > 1) {
        divisor = gcd(divisor, entry.totalBuckets());
      }
    }
    return divisor;
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}

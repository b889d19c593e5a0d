package io.basalt.spark.write;

import io.basalt.bucket.PostponedBucket;
import io.basalt.data.TimestampPrecision;
import io.basalt.manifest.ManifestEntry;
import io.basalt.predicate.Predicate;
import io.basalt.spark.functions.BucketFunctions;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;

/**
 * A planned write. It asks Spark to cluster rows by (partition, bucket), so exactly one task writes
 * each bucket. Append tables are also sorted by (partition, bucket), so a task finishes one
 * bucket's file before it opens the next; a primary-key table with fixed buckets is not sorted at
 * all (as Paimon), since its bucket writers sort their own buffers by key (see {@link
 * #sortsInWriter}).
 */
final class SparkWrite implements Write, RequiresDistributionAndOrdering {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private final boolean overwrite;
  private final boolean dynamic;
  @Nullable private final Predicate overwriteFilter;
  @Nullable private final Supplier<List<ManifestEntry>> replaced;

  SparkWrite(
      FileStoreTable table,
      LogicalWriteInfo info,
      boolean overwrite,
      boolean dynamic,
      @Nullable Predicate overwriteFilter) {
    this(table, info, overwrite, dynamic, overwriteFilter, null);
  }

  /**
   * @param replaced for a copy-on-write rewrite, the files the new ones replace (known once the
   *     rewrite's scan is planned), or null
   */
  SparkWrite(
      FileStoreTable table,
      LogicalWriteInfo info,
      boolean overwrite,
      boolean dynamic,
      @Nullable Predicate overwriteFilter,
      @Nullable Supplier<List<ManifestEntry>> replaced) {
    this.table = table;
    this.info = info;
    this.overwrite = overwrite;
    this.dynamic = dynamic;
    this.overwriteFilter = overwriteFilter;
    this.replaced = replaced;
  }

  @Override
  public String description() {
    return "BasaltWrite("
        + table.name()
        + (overwrite ? ", overwrite" : "")
        + (replaced != null ? ", copy-on-write" : "")
        + ")";
  }

  /** The (partition, bucket) clustering every write of {@code table} needs; may be empty. */
  static List<Expression> clustering(FileStoreTable table) {
    return clustering(table, false);
  }

  /**
   * Like {@link #clustering(FileStoreTable)}; {@code fixedBuckets} tells how a postponed-bucket
   * table is written (see {@link PostponedClustering}).
   */
  static List<Expression> clustering(FileStoreTable table, boolean fixedBuckets) {
    List<Expression> clustering = new ArrayList<>();
    for (String partition : table.schema().partitionKeys()) {
      clustering.add(Expressions.identity(partition));
    }
    int buckets = table.bucketCount();
    if (DynamicBucketWrite.isDynamic(table)) {
      // each key to its assigner, which picks the bucket in the task (see DynamicBucketWrite)
      buckets = DynamicBucketWrite.assigners(table);
    }
    if (PostponedBucket.isPostponed(table)) {
      clustering.addAll(PostponedClustering.of(table, fixedBuckets));
    } else if (buckets > 0) {
      clustering.add(bucketTransform(table, buckets));
    }
    return clustering;
  }

  /** {@code bucket(numBuckets, key...)}: the bucket Paimon's hash gives the bucket key. */
  static Expression bucketTransform(FileStoreTable table, int numBuckets) {
    List<Expression> args = new ArrayList<>();
    args.add(Expressions.literal(numBuckets));
    List<String> keys = table.bucketKeys();
    int[] precisions = new int[keys.size()];
    for (int i = 0; i < precisions.length; i++) {
      args.add(Expressions.column(keys.get(i)));
      // the function must hash a timestamp key as the writer does, in the column's precision
      precisions[i] = TimestampPrecision.of(table.schema().field(keys.get(i)).toStructField());
    }
    return Expressions.apply(BucketFunctions.nameFor(precisions), args.toArray(new Expression[0]));
  }

  /** Each bucket's rows to exactly one task. */
  static Distribution distribution(FileStoreTable table) {
    return distribution(table, false);
  }

  static Distribution distribution(FileStoreTable table, boolean fixedBuckets) {
    List<Expression> clustering = clustering(table, fixedBuckets);
    return clustering.isEmpty()
        ? Distributions.unspecified()
        : Distributions.clustered(clustering.toArray(new Expression[0]));
  }

  /** Within a task, bucket after bucket, by primary key. */
  static SortOrder[] ordering(FileStoreTable table) {
    return ordering(table, false);
  }

  static SortOrder[] ordering(FileStoreTable table, boolean fixedBuckets) {
    List<SortOrder> ordering = new ArrayList<>();
    for (Expression expression : clustering(table, fixedBuckets)) {
      ordering.add(Expressions.sort(expression, SortDirection.ASCENDING));
    }
    for (String key : table.schema().trimmedPrimaryKeys()) {
      ordering.add(Expressions.sort(Expressions.column(key), SortDirection.ASCENDING));
    }
    return ordering.toArray(new SortOrder[0]);
  }

  /** Whether this write goes straight into the buckets of a postponed-bucket table. */
  private boolean fixedBuckets() {
    return replaced == null && PostponedBucket.writesFixedBuckets(table, overwrite);
  }

  @Override
  public Distribution requiredDistribution() {
    return distribution(table, fixedBuckets());
  }

  /** {@link #ordering}, then by nested_update columns, so inserts append in a defined order. */
  @Override
  public SortOrder[] requiredOrdering() {
    List<SortOrder> nested = NestedUpdateOrder.of(table);
    if (nested.isEmpty() && sortsInWriter(table)) {
      return new SortOrder[0];
    }
    List<SortOrder> ordering = new ArrayList<>(List.of(ordering(table, fixedBuckets())));
    ordering.addAll(nested);
    return ordering.toArray(new SortOrder[0]);
  }

  /**
   * Whether the write needs no sort from Spark: a primary-key table with a fixed bucket count
   * buffers each bucket's rows in a binary sort buffer that orders them by key anyway, and keeps
   * one writer per bucket open, so rows of several buckets may arrive interleaved. Spark's sort
   * would order every row a second time, evaluating the bucket function at each comparison.
   */
  static boolean sortsInWriter(FileStoreTable table) {
    return table.hasPrimaryKey()
        && table.bucketCount() > 0
        && !DynamicBucketWrite.isDynamic(table)
        && !PostponedBucket.isPostponed(table);
  }

  @Override
  public StreamingWrite toStreaming() {
    StreamingSchemaCheck.check(table, info.schema());
    return new SparkStreamingWrite(table, info.queryId(), overwrite);
  }

  @Override
  public BatchWrite toBatch() {
    return new SparkBatchWrite(table, overwrite, dynamic, overwriteFilter, replaced, fixedBuckets())
        .withTrackedRows(TrackedRowsLayout.of(table, info));
  }
}

package io.basalt.spark.write;

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
 * each bucket, and to sort them by (partition, bucket, primary key), so a task finishes one bucket
 * before the next and its buffers flush already sorted.
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
    List<Expression> clustering = new ArrayList<>();
    for (String partition : table.schema().partitionKeys()) {
      clustering.add(Expressions.identity(partition));
    }
    int buckets = table.bucketCount();
    if (buckets > 0) {
      List<Expression> args = new ArrayList<>();
      args.add(Expressions.literal(buckets));
      List<String> keys = table.bucketKeys();
      int[] precisions = new int[keys.size()];
      for (int i = 0; i < precisions.length; i++) {
        args.add(Expressions.column(keys.get(i)));
        // the function must hash a timestamp key as the writer does, in the column's precision
        precisions[i] = TimestampPrecision.of(table.schema().field(keys.get(i)).toStructField());
      }
      clustering.add(
          Expressions.apply(BucketFunctions.nameFor(precisions), args.toArray(new Expression[0])));
    }
    return clustering;
  }

  /** Each bucket's rows to exactly one task. */
  static Distribution distribution(FileStoreTable table) {
    List<Expression> clustering = clustering(table);
    return clustering.isEmpty()
        ? Distributions.unspecified()
        : Distributions.clustered(clustering.toArray(new Expression[0]));
  }

  /** Within a task, bucket after bucket, by primary key. */
  static SortOrder[] ordering(FileStoreTable table) {
    List<SortOrder> ordering = new ArrayList<>();
    for (Expression expression : clustering(table)) {
      ordering.add(Expressions.sort(expression, SortDirection.ASCENDING));
    }
    for (String key : table.schema().trimmedPrimaryKeys()) {
      ordering.add(Expressions.sort(Expressions.column(key), SortDirection.ASCENDING));
    }
    return ordering.toArray(new SortOrder[0]);
  }

  @Override
  public Distribution requiredDistribution() {
    return distribution(table);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    return ordering(table);
  }

  @Override
  public StreamingWrite toStreaming() {
    StreamingSchemaCheck.check(table, info.schema());
    return new SparkStreamingWrite(table, info.queryId(), overwrite);
  }

  @Override
  public BatchWrite toBatch() {
    return new SparkBatchWrite(table, overwrite, dynamic, overwriteFilter, replaced);
  }
}

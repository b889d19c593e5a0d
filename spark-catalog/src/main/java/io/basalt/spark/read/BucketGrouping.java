package io.basalt.spark.read;

import io.basalt.data.BinaryRowCodec;
import io.basalt.data.TimestampPrecision;
import io.basalt.operation.scan.SplitPacker;
import io.basalt.options.ReadOptions;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Whether a scan reports its fixed buckets to Spark, and the layout it then reports: a {@code
 * KeyGroupedPartitioning} over the partition columns it reads and {@code bucket(N, key)}, with one
 * or more {@link GroupedInputPartition}s per (partition, bucket). Grouping is opt-in ({@code
 * scan.preserve-data-grouping}) because Spark runs one task per reported key: a plain scan of a
 * grouped table has at most as many tasks as buckets. When the layout cannot be reported exactly,
 * the scan packs splits by size as usual and {@link #describe()} says why.
 *
 * <p>A key ordering is reported only when every (partition, bucket) is a single input partition
 * whose rows come out in key order: a merged read, or one file (a file is sorted by key). Spark
 * drops an ordering anyway when it has to combine several input partitions of one key.
 */
final class BucketGrouping {
  static final String V2_BUCKETING = "spark.sql.sources.v2.bucketing.enabled";

  @Nullable private final String offReason;
  private final int numBuckets;
  @Nullable private final String bucketColumn;
  private final List<String> partitionColumns;
  private final int[] partitionPositions;
  @Nullable private final BinaryRowCodec partitionCodec;
  private final DataType[] partitionTypes;
  private final List<String> sortColumns;

  private BucketGrouping(
      @Nullable String offReason,
      int numBuckets,
      @Nullable String bucketColumn,
      List<String> partitionColumns,
      int[] partitionPositions,
      StructType partitionType,
      List<String> sortColumns) {
    this.offReason = offReason;
    this.numBuckets = numBuckets;
    this.bucketColumn = bucketColumn;
    this.partitionColumns = partitionColumns;
    this.partitionPositions = partitionPositions;
    this.partitionCodec = partitionType.isEmpty() ? null : new BinaryRowCodec(partitionType);
    this.partitionTypes =
        java.util.Arrays.stream(partitionType.fields())
            .map(StructField::dataType)
            .toArray(DataType[]::new);
    this.sortColumns = sortColumns;
  }

  private static BucketGrouping off(String reason) {
    return new BucketGrouping(reason, 0, null, List.of(), new int[0], new StructType(), List.of());
  }

  /**
   * Decides the layout of a scan of {@code splits}.
   *
   * @param requested the effective {@code scan.preserve-data-grouping}
   * @param v2Bucketing Spark's {@value #V2_BUCKETING} when the scan was created
   * @param rewrite whether the scan reads the files a row-level operation rewrites
   */
  static BucketGrouping decide(
      FileStoreTable table,
      StructType readSchema,
      List<DataSplit> splits,
      boolean requested,
      boolean v2Bucketing,
      boolean rewrite) {
    if (!requested) {
      return off(ReadOptions.SCAN_PRESERVE_DATA_GROUPING.key() + " is false");
    }
    if (!v2Bucketing) {
      return off(V2_BUCKETING + " is false");
    }
    if (rewrite) {
      return off("row-level rewrite scan");
    }
    int bucket = table.bucketCount();
    if (bucket == -1 && !table.hasPrimaryKey()) {
      return off("bucket-unaware append table");
    }
    if (bucket < 1) {
      return off("dynamic or postponed buckets (bucket = " + bucket + ")");
    }
    List<String> keys = table.bucketKeys();
    if (keys.isEmpty()) {
      return off("no bucket key");
    }
    if (keys.size() > 1) {
      return off("composite bucket key (" + String.join(", ", keys) + ")");
    }
    String key = keys.get(0);
    if (!hasField(readSchema, key)) {
      return off("bucket key " + key + " not in the read schema");
    }
    int precision = TimestampPrecision.of(table.schema().field(key).toStructField());
    if (precision != TimestampPrecision.DEFAULT) {
      // Spark's bucket transform resolves to the function "bucket", which hashes microseconds;
      // this key is hashed in its own precision (see BucketFunctions.nameFor)
      return off("bucket key " + key + " is a timestamp of precision " + precision);
    }
    if (splits.isEmpty()) {
      return off("nothing to read");
    }
    TreeSet<Integer> counts = new TreeSet<>();
    for (DataSplit split : splits) {
      counts.add(split.totalBuckets());
    }
    if (counts.size() > 1) {
      return off("selected partitions have different bucket counts " + counts);
    }
    return on(table, readSchema, counts.first(), key);
  }

  private static BucketGrouping on(
      FileStoreTable table, StructType readSchema, int numBuckets, String key) {
    List<String> partitionKeys = table.schema().partitionKeys();
    List<String> partitionColumns = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < partitionKeys.size(); i++) {
      if (hasField(readSchema, partitionKeys.get(i))) {
        partitionColumns.add(partitionKeys.get(i));
        positions.add(i);
      }
    }
    List<String> sortColumns = new ArrayList<>();
    if (table.hasPrimaryKey()) {
      // within one (partition, bucket) the partition columns are constant, so rows sorted by
      // the key are also sorted by (partition columns read, key); a prefix of the key read is
      // still a valid ordering
      sortColumns.addAll(partitionColumns);
      for (String pk : table.schema().trimmedPrimaryKeys()) {
        if (!hasField(readSchema, pk)) {
          break;
        }
        sortColumns.add(pk);
      }
      if (sortColumns.size() == partitionColumns.size()) {
        sortColumns.clear();
      }
    }
    return new BucketGrouping(
        null,
        numBuckets,
        key,
        List.copyOf(partitionColumns),
        positions.stream().mapToInt(Integer::intValue).toArray(),
        table.partitionType(),
        List.copyOf(sortColumns));
  }

  private static boolean hasField(StructType schema, String name) {
    return List.of(schema.fieldNames()).contains(name);
  }

  boolean on() {
    return offReason == null;
  }

  /** The decision as EXPLAIN shows it, e.g. {@code grouping=off: composite bucket key (a, b)}. */
  String describe(boolean ordered) {
    if (!on()) {
      return "grouping=off: " + offReason;
    }
    List<String> keys = new ArrayList<>(partitionColumns);
    keys.add("bucket(" + numBuckets + ", " + bucketColumn + ")");
    String ordering = ordered ? ", ordered by [" + String.join(", ", sortColumns) + "]" : "";
    return "grouping=on: [" + String.join(", ", keys) + "]" + ordering;
  }

  /** The reported partitioning keys: the partition columns read, then {@code bucket(N, key)}. */
  Expression[] keys() {
    List<Expression> keys = new ArrayList<>();
    for (String column : partitionColumns) {
      keys.add(Expressions.identity(quote(column)));
    }
    keys.add(Expressions.bucket(numBuckets, quote(bucketColumn)));
    return keys.toArray(new Expression[0]);
  }

  /** The ordering every input partition has when {@link Layout#ordered()} holds. */
  SortOrder[] ordering() {
    return sortColumns.stream()
        .map(
            c ->
                Expressions.sort(
                    Expressions.column(quote(c)),
                    SortDirection.ASCENDING,
                    NullOrdering.NULLS_FIRST))
        .toArray(SortOrder[]::new);
  }

  /** The input partitions of a grouped scan and whether each key's rows come out sorted. */
  record Layout(GroupedInputPartition[] partitions, int keyCount, boolean ordered) {}

  /**
   * Cuts each (partition, bucket) into read units of about the target size, never mixing buckets.
   */
  Layout plan(List<DataSplit> splits, SplitPacker packer) {
    List<GroupedInputPartition> partitions = new ArrayList<>();
    Map<InternalRow, Integer> unitsPerKey = new HashMap<>();
    boolean sorted = !sortColumns.isEmpty();
    for (DataSplit split : splits) {
      InternalRow key = key(split);
      for (List<DataSplit> unit : packer.pack(List.of(split))) {
        partitions.add(new GroupedInputPartition(unit, key));
        unitsPerKey.merge(key, 1, Integer::sum);
        sorted &= unit.size() == 1 && inKeyOrder(unit.get(0));
      }
    }
    boolean onePerKey = unitsPerKey.values().stream().allMatch(n -> n == 1);
    return new Layout(
        partitions.toArray(new GroupedInputPartition[0]), unitsPerKey.size(), sorted && onePerKey);
  }

  /** A merged read yields rows in key order, and so does a single file. */
  private static boolean inKeyOrder(DataSplit split) {
    return !split.rawConvertible() || split.files().size() == 1;
  }

  private InternalRow key(DataSplit split) {
    Object[] values = new Object[partitionPositions.length + 1];
    if (partitionPositions.length > 0) {
      InternalRow partition = partitionCodec.toRow(split.partition());
      for (int i = 0; i < partitionPositions.length; i++) {
        int position = partitionPositions[i];
        values[i] =
            partition.isNullAt(position) ? null : partition.get(position, partitionTypes[position]);
      }
    }
    values[partitionPositions.length] = split.bucket();
    return new GenericInternalRow(values);
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}

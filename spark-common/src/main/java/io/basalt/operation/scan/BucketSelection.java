package io.basalt.operation.scan;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.predicate.FiniteKeys;
import io.basalt.predicate.Predicate;
import io.basalt.schema.DataField;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The buckets of a fixed-bucket table that can hold rows matching a filter, found from the finite
 * set of bucket-key values the filter allows ({@link FiniteKeys}): each value tuple is encoded and
 * hashed exactly as the writer does ({@link BucketFunction} over the bucket-key BinaryRow), then
 * taken modulo the bucket count each file was written with, so a partition rescaled to another
 * count is selected with its own. Selects every bucket when the filter does not pin every
 * bucket-key column to finitely many values ({@value #MAX_KEYS} at most).
 */
public final class BucketSelection {
  /** Beyond this many bucket-key tuples, no bucket is skipped: the filter is not a lookup. */
  public static final int MAX_KEYS = 1000;

  private static final BucketSelection ALL = new BucketSelection(List.of(), null);

  private final List<String> keys;

  /** The encoded bucket keys the filter allows; null when it allows any. */
  @Nullable private final List<BinaryRow> keyRows;

  /** The selected buckets per bucket count, computed on first use (planning may be parallel). */
  private final Map<Integer, BitSet> byCount = new ConcurrentHashMap<>();

  private BucketSelection(List<String> keys, @Nullable List<BinaryRow> keyRows) {
    this.keys = keys;
    this.keyRows = keyRows;
  }

  /** What {@code filter} selects in {@code table}; every bucket unless it is a fixed-bucket one. */
  public static BucketSelection of(FileStoreTable table, @Nullable Predicate filter) {
    if (filter == null || table.bucketCount() <= 0 || otherBucketFunction(table)) {
      return ALL;
    }
    List<String> keys = table.bucketKeys();
    List<StructField> fields = new ArrayList<>();
    List<DataType> types = new ArrayList<>();
    for (DataField field : table.schema().fields(keys)) {
      fields.add(field.toStructField());
      types.add(field.type());
    }
    Optional<List<Object[]>> tuples = FiniteKeys.of(filter, keys, types, MAX_KEYS);
    if (tuples.isEmpty()) {
      return ALL;
    }
    // the same codec as the writer's: field types with their timestamp precisions
    BinaryRowCodec codec = new BinaryRowCodec(new StructType(fields.toArray(new StructField[0])));
    List<BinaryRow> rows = new ArrayList<>();
    for (Object[] tuple : tuples.get()) {
      rows.add(codec.toBinary(new GenericInternalRow(tuple)));
    }
    return new BucketSelection(keys, rows);
  }

  /**
   * Paimon's {@code bucket-function.type} other than {@code default} (e.g. {@code mod}) places rows
   * by another function: never guess the bucket then.
   */
  private static boolean otherBucketFunction(FileStoreTable table) {
    return table
        .options()
        .raw("bucket-function.type")
        .map(type -> !"default".equalsIgnoreCase(type.trim()))
        .orElse(false);
  }

  /** Whether this selection may skip buckets at all. */
  public boolean selectsAll() {
    return keyRows == null;
  }

  /**
   * Whether bucket {@code bucket} of files written with {@code totalBuckets} buckets may hold
   * matching rows; true for files without a fixed bucket count (dynamic, postponed, unaware).
   */
  public boolean selects(int bucket, int totalBuckets) {
    if (keyRows == null || totalBuckets <= 0) {
      return true;
    }
    return selected(totalBuckets).get(bucket);
  }

  private BitSet selected(int totalBuckets) {
    return byCount.computeIfAbsent(
        totalBuckets,
        count -> {
          BitSet buckets = new BitSet(count);
          for (BinaryRow row : keyRows) {
            buckets.set(BucketFunction.bucket(row, count));
          }
          return buckets;
        });
  }

  /**
   * The selection for a scan description: {@code all}, or the bucket key and the buckets selected
   * out of each of {@code totalBuckets}, e.g. {@code order_id: 3 of 16}.
   */
  public String describe(Collection<Integer> totalBuckets) {
    if (keyRows == null) {
      return "all";
    }
    List<String> parts = new ArrayList<>();
    for (int count : new TreeSet<>(totalBuckets)) {
      if (count > 0) {
        BitSet buckets = selected(count);
        parts.add(
            buckets.stream().boxed().toList().toString().replaceAll("[\\[\\]]", "")
                + " of "
                + count);
      }
    }
    String selected = parts.isEmpty() ? "none planned" : String.join("; ", parts);
    return String.join(", ", keys) + ": " + selected;
  }
}

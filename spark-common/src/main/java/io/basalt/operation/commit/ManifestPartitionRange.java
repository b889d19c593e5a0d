package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ValueComparators;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.SimpleStats;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.StructType;

/**
 * Whether a manifest may hold an entry of a given partition and bucket, judged from its manifest
 * list row (partition min/max/null counts, bucket range). May-match: unknown stats say yes.
 */
final class ManifestPartitionRange {
  /** A partition and bucket. */
  record Location(BinaryRow partition, int bucket) {}

  private final BinaryRowCodec codec;
  private final DataType[] types;
  private final Comparator<Object>[] comparators;

  @SuppressWarnings("unchecked")
  ManifestPartitionRange(StructType partitionType) {
    this.codec = new BinaryRowCodec(partitionType);
    this.types = new DataType[partitionType.size()];
    this.comparators = new Comparator[types.length];
    for (int i = 0; i < types.length; i++) {
      types[i] = partitionType.fields()[i].dataType();
      // floating point: -0.0 and NaN order differently in places; never skip on them
      boolean exact =
          ValueComparators.isOrderable(types[i])
              && !(types[i] instanceof FloatType)
              && !(types[i] instanceof DoubleType);
      comparators[i] = exact ? ValueComparators.forType(types[i]) : null;
    }
  }

  boolean mayContain(ManifestFileMeta meta, Location location) {
    if (meta.minBucket() != null && location.bucket() < meta.minBucket()) {
      return false;
    }
    if (meta.maxBucket() != null && location.bucket() > meta.maxBucket()) {
      return false;
    }
    SimpleStats stats = meta.partitionStats();
    if (types.length == 0
        || stats.minValues().arity() != types.length
        || stats.maxValues().arity() != types.length) {
      return true;
    }
    InternalRow partition = codec.toRow(location.partition());
    InternalRow min = codec.toRow(stats.minValues());
    InternalRow max = codec.toRow(stats.maxValues());
    List<Long> nullCounts = stats.nullCounts();
    for (int i = 0; i < types.length; i++) {
      if (partition.isNullAt(i)) {
        Long nulls = nullCounts == null || nullCounts.size() <= i ? null : nullCounts.get(i);
        if (nulls != null && nulls == 0) {
          return false;
        }
        continue;
      }
      if (comparators[i] == null || min.isNullAt(i) || max.isNullAt(i)) {
        continue;
      }
      Object value = partition.get(i, types[i]);
      if (comparators[i].compare(value, min.get(i, types[i])) < 0
          || comparators[i].compare(value, max.get(i, types[i])) > 0) {
        return false;
      }
    }
    return true;
  }
}

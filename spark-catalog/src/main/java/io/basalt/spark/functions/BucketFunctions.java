package io.basalt.spark.functions;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ProjectedRow;
import io.basalt.data.ValueComparators;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.Reducer;
import org.apache.spark.sql.connector.catalog.functions.ReducibleFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code bucket(numBuckets, key1, key2, ...)}: the bucket Paimon puts a row in, for any number of
 * key columns. Spark resolves the write distribution's bucket transform through it, so every row of
 * a bucket reaches the same task, and the {@code bucket(N, key)} partitioning a grouped scan
 * reports (see {@code SparkScan}), to compare the layouts of two tables.
 *
 * <p>It is reducible: the bucket is {@code abs(hash % N)}, so for any divisor {@code d} of {@code
 * N}, {@code bucket_N % d == bucket_d}. Tables whose bucket counts share a divisor can be joined
 * bucket to bucket when Spark's {@code
 * spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled} is on.
 */
public final class BucketFunctions implements UnboundFunction {
  public static final String NAME = "bucket";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "bucket(numBuckets, key...) - the Paimon bucket of the key columns";
  }

  @Override
  public BoundFunction bind(StructType inputType) {
    StructField[] fields = inputType.fields();
    if (fields.length < 2 || !(fields[0].dataType() instanceof IntegerType)) {
      throw new UnsupportedOperationException(
          "bucket(numBuckets INT, key, ...) needs a bucket count and at least one key column");
    }
    DataType[] keyTypes = new DataType[fields.length - 1];
    for (int i = 0; i < keyTypes.length; i++) {
      keyTypes[i] = fields[i + 1].dataType();
      if (!ValueComparators.isOrderable(keyTypes[i])) {
        throw new UnsupportedOperationException(
            "bucket() cannot hash a column of type " + keyTypes[i].simpleString());
      }
    }
    return new Bound(keyTypes);
  }

  /** The function bound to key column types. */
  private static final class Bound
      implements ScalarFunction<Integer>, ReducibleFunction<Integer, Integer> {
    private final DataType[] keyTypes;
    private transient BinaryRowCodec codec;
    private transient ProjectedRow keys;

    Bound(DataType[] keyTypes) {
      this.keyTypes = keyTypes;
    }

    @Override
    public DataType[] inputTypes() {
      DataType[] types = new DataType[keyTypes.length + 1];
      types[0] = DataTypes.IntegerType;
      System.arraycopy(keyTypes, 0, types, 1, keyTypes.length);
      return types;
    }

    @Override
    public DataType resultType() {
      return DataTypes.IntegerType;
    }

    @Override
    public boolean isResultNullable() {
      return false;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String canonicalName() {
      return "basalt.bucket("
          + String.join(
              ",", java.util.Arrays.stream(keyTypes).map(DataType::catalogString).toList())
          + ")";
    }

    /**
     * Reduces this function's buckets to those of {@code bucket(gcd(thisNumBuckets,
     * otherNumBuckets), key)}: {@code abs(h % N) % d == abs(h % d)} whenever {@code d} divides
     * {@code N}, since Java's remainder keeps the sign of {@code h}. Null when there is nothing to
     * reduce (this side has the smaller count already) or the other function hashes other types.
     */
    @Override
    public Reducer<Integer, Integer> reducer(
        int thisNumBuckets, ReducibleFunction<?, ?> otherFunction, int otherNumBuckets) {
      if (!(otherFunction instanceof Bound other)
          || !java.util.Arrays.equals(keyTypes, other.keyTypes)) {
        return null;
      }
      int divisor = gcd(thisNumBuckets, otherNumBuckets);
      return divisor == thisNumBuckets ? null : new ModuloReducer(divisor);
    }

    private static int gcd(int a, int b) {
      return b == 0 ? a : gcd(b, a % b);
    }

    @Override
    public Integer produceResult(InternalRow input) {
      if (codec == null) {
        codec = new BinaryRowCodec(keyTypes);
        int[] indices = new int[keyTypes.length];
        for (int i = 0; i < indices.length; i++) {
          indices[i] = i + 1;
        }
        keys = new ProjectedRow(keyTypes, indices);
      }
      return BucketFunction.bucket(codec.toBinary(keys.replace(input)), input.getInt(0));
    }
  }

  /** Maps a bucket of a larger count to the bucket of {@code divisor} buckets. */
  private record ModuloReducer(int divisor)
      implements Reducer<Integer, Integer>, java.io.Serializable {
    @Override
    public Integer reduce(Integer bucket) {
      return bucket % divisor;
    }
  }
}

package io.basalt.spark.functions;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ProjectedRow;
import io.basalt.data.TimestampPrecision;
import io.basalt.data.TruncatedTimestampsRow;
import io.basalt.data.ValueComparators;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
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
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

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

  // Spark binds a function to the argument types only, without the columns' metadata, so key
  // timestamps of a precision other than 6 (hashed as Paimon stores them) are named in the
  // function: bucket_p<precision of key 1>_<key 2>... (the precision of other types is ignored)
  private static final String PRECISIONS_PREFIX = NAME + "_p";

  @Nullable private final int[] precisions;

  public BucketFunctions() {
    this(null);
  }

  private BucketFunctions(@Nullable int[] precisions) {
    this.precisions = precisions;
  }

  /** The function name that hashes keys of these timestamp precisions (one per bucket key). */
  public static String nameFor(int[] keyPrecisions) {
    if (Arrays.stream(keyPrecisions).allMatch(p -> p == TimestampPrecision.DEFAULT)) {
      return NAME;
    }
    return PRECISIONS_PREFIX
        + String.join("_", Arrays.stream(keyPrecisions).mapToObj(String::valueOf).toList());
  }

  /** The function called {@code name}, if it is {@link #NAME} or a {@link #nameFor} name. */
  public static Optional<BucketFunctions> forName(String name) {
    if (NAME.equals(name)) {
      return Optional.of(new BucketFunctions());
    }
    if (!name.matches(PRECISIONS_PREFIX + "[0-9]+(_[0-9]+)*")) {
      return Optional.empty();
    }
    int[] precisions =
        Arrays.stream(name.substring(PRECISIONS_PREFIX.length()).split("_"))
            .mapToInt(Integer::parseInt)
            .toArray();
    if (Arrays.stream(precisions).anyMatch(p -> p > TimestampPrecision.MAX)) {
      return Optional.empty();
    }
    return Optional.of(new BucketFunctions(precisions));
  }

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
    StructField[] keys = new StructField[fields.length - 1];
    if (precisions != null && precisions.length != keys.length) {
      throw new UnsupportedOperationException(
          String.format(
              "%s names %d key precisions but is called with %d key columns",
              nameFor(precisions), precisions.length, keys.length));
    }
    for (int i = 0; i < keys.length; i++) {
      DataType type = fields[i + 1].dataType();
      if (!ValueComparators.isOrderable(type)) {
        throw new UnsupportedOperationException(
            "bucket() cannot hash a column of type " + type.simpleString());
      }
      keys[i] = DataTypes.createStructField("k" + i, type, true);
      if (precisions != null
          && (type instanceof TimestampType || type instanceof TimestampNTZType)) {
        keys[i] = TimestampPrecision.with(keys[i], precisions[i]);
      }
    }
    return new Bound(new StructType(keys));
  }

  /** The function bound to key column types. */
  private static final class Bound
      implements ScalarFunction<Integer>, ReducibleFunction<Integer, Integer> {
    private final StructType keyFields;
    private final DataType[] keyTypes;
    private transient BinaryRowCodec codec;
    private transient ProjectedRow keys;
    @Nullable private transient TruncatedTimestampsRow truncated;

    Bound(StructType keyFields) {
      this.keyFields = keyFields;
      this.keyTypes =
          Arrays.stream(keyFields.fields()).map(StructField::dataType).toArray(DataType[]::new);
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
      List<String> keys = new ArrayList<>();
      for (StructField key : keyFields.fields()) {
        int precision = TimestampPrecision.of(key);
        keys.add(
            key.dataType().catalogString()
                + (precision == TimestampPrecision.DEFAULT ? "" : "(" + precision + ")"));
      }
      return "basalt.bucket(" + String.join(",", keys) + ")";
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
      // the same key types and timestamp precisions hash alike
      if (!(otherFunction instanceof Bound other)
          || !canonicalName().equals(other.canonicalName())) {
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
        codec = new BinaryRowCodec(keyFields);
        truncated = TruncatedTimestampsRow.of(keyFields);
        int[] indices = new int[keyTypes.length];
        for (int i = 0; i < indices.length; i++) {
          indices[i] = i + 1;
        }
        keys = new ProjectedRow(keyTypes, indices);
      }
      InternalRow key = keys.replace(input);
      // the writer hashes timestamps cut to the column's precision (precision 0 to 2, 4, 5)
      if (truncated != null) {
        key = truncated.replace(key);
      }
      // Spark calls this per row (in the shuffle's projection): hash the reused bytes, no copy
      int length = codec.encodeReused(key);
      return BucketFunction.bucket(codec.reusedBytes(), length, input.getInt(0));
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

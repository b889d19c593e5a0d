package io.basalt.spark.functions;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ProjectedRow;
import io.basalt.data.ValueComparators;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
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
 * a bucket reaches the same task.
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
  private static final class Bound implements ScalarFunction<Integer> {
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
}

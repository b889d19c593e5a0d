package io.basalt.spark.functions;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.functions.Reducer;
import org.apache.spark.sql.connector.catalog.functions.ReducibleFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class BucketFunctionsTest {
  @SuppressWarnings("unchecked")
  private static ScalarFunction<Integer> bucketOf(org.apache.spark.sql.types.DataType keyType) {
    return (ScalarFunction<Integer>)
        new BucketFunctions()
            .bind(new StructType().add("numBuckets", DataTypes.IntegerType).add("key", keyType));
  }

  private static int bucket(ScalarFunction<Integer> function, int numBuckets, Object key) {
    InternalRow row = new GenericInternalRow(new Object[] {numBuckets, key});
    return function.produceResult(row);
  }

  @SuppressWarnings("unchecked")
  private static Reducer<Integer, Integer> reducer(
      ScalarFunction<Integer> function, int n, ScalarFunction<Integer> other, int m) {
    return ((ReducibleFunction<Integer, Integer>) function)
        .reducer(n, (ReducibleFunction<?, ?>) other, m);
  }

  @Test
  void reducesALargerBucketCountToTheCommonDivisor() {
    ScalarFunction<Integer> f = bucketOf(DataTypes.LongType);
    Reducer<Integer, Integer> sixteenToEight = reducer(f, 16, f, 8);
    Reducer<Integer, Integer> twelveToFour = reducer(f, 12, f, 16);
    Reducer<Integer, Integer> sixteenToFour = reducer(f, 16, f, 12);
    for (long key = -2000; key < 2000; key++) {
      assertThat(sixteenToEight.reduce(bucket(f, 16, key))).isEqualTo(bucket(f, 8, key));
      assertThat(twelveToFour.reduce(bucket(f, 12, key))).isEqualTo(bucket(f, 4, key));
      assertThat(sixteenToFour.reduce(bucket(f, 16, key))).isEqualTo(bucket(f, 4, key));
    }
  }

  @Test
  void noReducerForTheSmallerSideOrOtherKeyTypes() {
    ScalarFunction<Integer> longs = bucketOf(DataTypes.LongType);
    ScalarFunction<Integer> strings = bucketOf(DataTypes.StringType);
    assertThat(reducer(longs, 8, longs, 16)).isNull();
    assertThat(reducer(longs, 8, longs, 8)).isNull();
    assertThat(reducer(longs, 16, strings, 8)).isNull();
    Reducer<Integer, Integer> strings16To8 = reducer(strings, 16, strings, 8);
    for (int i = 0; i < 500; i++) {
      UTF8String key = UTF8String.fromString("k" + i);
      assertThat(strings16To8.reduce(bucket(strings, 16, key))).isEqualTo(bucket(strings, 8, key));
    }
  }
}

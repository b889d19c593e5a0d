package io.basalt.spark.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.TimestampPrecision;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BucketFunctionsPrecisionTest {
  private static final StructType INPUT =
      new StructType()
          .add("n", DataTypes.IntegerType, false)
          .add("ts", DataTypes.TimestampNTZType, false);

  @SuppressWarnings("unchecked")
  private static int bucket(String name, long micros) {
    BoundFunction bound = BucketFunctions.forName(name).orElseThrow().bind(INPUT);
    return ((ScalarFunction<Integer>) bound)
        .produceResult(new GenericInternalRow(new Object[] {16, micros}));
  }

  /** The bucket the writer picks: the value cut to the precision, hashed in Paimon's layout. */
  private static int writerBucket(int precision, long micros) {
    StructField field =
        TimestampPrecision.with(
            DataTypes.createStructField("ts", DataTypes.TimestampNTZType, false), precision);
    long unit = (long) Math.pow(10, 6 - precision);
    long cut = Math.floorDiv(micros, unit) * unit;
    BinaryRowCodec codec = new BinaryRowCodec(new StructType(new StructField[] {field}));
    return BucketFunction.bucket(codec.toBinary(new GenericInternalRow(new Object[] {cut})), 16);
  }

  @Test
  void namesCarryTheKeyPrecisionsOtherThanSix() {
    assertThat(BucketFunctions.nameFor(new int[] {6, 6})).isEqualTo("bucket");
    assertThat(BucketFunctions.nameFor(new int[] {6, 3})).isEqualTo("bucket_p6_3");
    assertThat(BucketFunctions.forName("bucket_p6_3")).isPresent();
    assertThat(BucketFunctions.forName("bucket_p")).isEmpty();
    assertThat(BucketFunctions.forName("bucket_p12")).isEmpty();
    assertThat(BucketFunctions.forName("buckets")).isEmpty();
  }

  @Test
  void hashesTimestampsInTheColumnPrecisionAsTheWriterDoes() {
    int differences = 0;
    for (long i = 0; i < 50; i++) {
      long micros = 1_728_432_000_123_456L + i * 7_919L - (i % 2 == 0 ? 0 : 3_000_000_000L);
      assertThat(bucket("bucket_p3", micros)).isEqualTo(writerBucket(3, micros));
      assertThat(bucket("bucket_p4", micros)).isEqualTo(writerBucket(4, micros));
      assertThat(bucket("bucket", micros)).isEqualTo(writerBucket(6, micros));
      if (bucket("bucket", micros) != writerBucket(3, micros)) {
        differences++;
      }
    }
    // the precision-less function would have sent rows to the wrong tasks
    assertThat(differences).isPositive();
    assertThat(BucketFunctions.forName("bucket_p3").orElseThrow().bind(INPUT).canonicalName())
        .isEqualTo("basalt.bucket(timestamp_ntz(3))");
  }

  @Test
  void aPrecisionPerKeyIsRequired() {
    assertThatThrownBy(() -> BucketFunctions.forName("bucket_p3_3").orElseThrow().bind(INPUT))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("bucket_p3_3 names 2 key precisions but is called with 1 key columns");
  }
}

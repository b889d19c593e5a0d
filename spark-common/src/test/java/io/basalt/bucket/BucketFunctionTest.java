package io.basalt.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.utils.SerializationUtils;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class BucketFunctionTest {
  private final BinaryRowCodec orderId = new BinaryRowCodec(DataTypes.LongType);

  private BinaryRow key(long id) {
    return orderId.toBinary(new GenericInternalRow(new Object[] {id}));
  }

  @Test
  void hashesMatchPaimonForOrderIds() {
    // values Paimon 1.3.1 computed (format-notes.md 7.1 and the HASH index of keys 1, 2, 3)
    assertThat(BucketFunction.hash(key(1))).isEqualTo(1465514398).isEqualTo(0x5759f99e);
    assertThat(BucketFunction.hash(key(2))).isEqualTo(0x4fe4bbf0);
    assertThat(BucketFunction.hash(key(3))).isEqualTo(-771300025).isEqualTo(0xd206e547);
  }

  @Test
  void bucketIsAbsoluteJavaRemainder() {
    assertThat(BucketFunction.bucket(key(3), 2)).isEqualTo(1);
    assertThat(BucketFunction.bucket(key(1), 2)).isEqualTo(0);
    for (int n : new int[] {1, 3, 7, 16, 1000}) {
      assertThat(BucketFunction.bucket(key(3), n)).isEqualTo(Math.abs(-771300025 % n));
      assertThat(BucketFunction.bucket(key(1), n)).isEqualTo(1465514398 % n);
    }
  }

  @Test
  void negativeHashesStillGiveBucketsInRange() {
    assertThat(BucketFunction.bucketOfHash(Integer.MIN_VALUE, 3)).isEqualTo(2);
    assertThat(BucketFunction.bucketOfHash(-5, 4)).isEqualTo(1);
    for (long id = 0; id < 500; id++) {
      assertThat(BucketFunction.bucket(key(id), 5)).isBetween(0, 4);
    }
  }

  @Test
  void emptyKeyRowHasAStableHash() {
    assertThat(BucketFunction.hash(BinaryRow.EMPTY))
        .isEqualTo(MurmurHash3.hash32(new byte[8], 0, 8, BucketFunction.SEED));
  }

  @Test
  void rejectsNonPositiveBucketCounts() {
    assertThatThrownBy(() -> BucketFunction.bucket(key(1), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid bucket count 0: fixed buckets need at least 1");
  }

  @Test
  void nanAndNegativeZeroKeysHaveTheBytesPaimonWrites() {
    BinaryRowCodec doubles = new BinaryRowCodec(DataTypes.DoubleType);
    BinaryRowCodec floats = new BinaryRowCodec(DataTypes.FloatType);
    double otherNan = Double.longBitsToDouble(0xfff8000000000001L);
    float otherFloatNan = Float.intBitsToFloat(0xffc00001);
    assertThat(Double.isNaN(otherNan) && Float.isNaN(otherFloatNan)).isTrue();
    // a key's bucket is the hash of these bytes: they must be Paimon's, NaN payload and sign of
    // zero included, or Basalt and Paimon would put the same key in different buckets
    for (double value : new double[] {otherNan, Double.NaN, -0.0, 0.0}) {
      assertThat(
              BinaryRowCodec.serialize(
                  doubles.toBinary(new GenericInternalRow(new Object[] {value}))))
          .as("DOUBLE %s", Double.doubleToRawLongBits(value))
          .isEqualTo(
              SerializationUtils.serializeBinaryRow(
                  new InternalRowSerializer(org.apache.paimon.types.DataTypes.DOUBLE())
                      .toBinaryRow(GenericRow.of(value))));
    }
    for (float value : new float[] {otherFloatNan, Float.NaN, -0.0f, 0.0f}) {
      assertThat(
              BinaryRowCodec.serialize(
                  floats.toBinary(new GenericInternalRow(new Object[] {value}))))
          .as("FLOAT %s", Float.floatToRawIntBits(value))
          .isEqualTo(
              SerializationUtils.serializeBinaryRow(
                  new InternalRowSerializer(org.apache.paimon.types.DataTypes.FLOAT())
                      .toBinaryRow(GenericRow.of(value))));
    }
    // -0.0 keeps its sign bit, as in Paimon: it is a key of its own, which reads still find for
    // "= 0.0" because no read prunes buckets by hashing a key literal
    assertThat(doubles.toBinary(new GenericInternalRow(new Object[] {-0.0})))
        .isNotEqualTo(doubles.toBinary(new GenericInternalRow(new Object[] {0.0})));
  }
}

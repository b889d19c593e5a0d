package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BlobScanSizingTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType)
          .add("image", DataTypes.BinaryType)
          .add("frames", DataTypes.createArrayType(DataTypes.BinaryType))
          .add("parts", DataTypes.createMapType(DataTypes.StringType, DataTypes.BinaryType))
          .add("keys", DataTypes.createMapType(DataTypes.BinaryType, DataTypes.StringType))
          .add("name", DataTypes.StringType);

  @Test
  void blobColumnsAreBinaryArraysOfBinaryAndMapsToBinary() {
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "image")).isTrue();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "frames")).isTrue();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "parts")).isTrue();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "name, image")).isTrue();
  }

  @Test
  void otherColumnsMissingColumnsAndNoOptionAreNot() {
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, null)).isFalse();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "")).isFalse();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "name")).isFalse();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "keys")).isFalse();
    assertThat(BlobScanSizing.hasBlobColumn(SCHEMA, "missing")).isFalse();
  }

  @Test
  void splitTargetSizeThenSparkMaxPartitionBytesThenTheDefault() {
    BlobScanSizing set = new BlobScanSizing(true, OptionalLong.of(1000));
    BlobScanSizing unset = new BlobScanSizing(true, OptionalLong.empty());
    assertThat(set.maxPartitionBytes(OptionalLong.of(5000))).isEqualTo(1000);
    assertThat(set.maxPartitionBytes(OptionalLong.empty())).isEqualTo(1000);
    assertThat(unset.maxPartitionBytes(OptionalLong.of(5000))).isEqualTo(5000);
    assertThat(unset.maxPartitionBytes(OptionalLong.empty())).isEqualTo(128L << 20);
    // a zero target means the smallest one, as the split packer reads it
    assertThat(new BlobScanSizing(true, OptionalLong.of(0)).maxPartitionBytes(OptionalLong.empty()))
        .isEqualTo(1);
  }
}

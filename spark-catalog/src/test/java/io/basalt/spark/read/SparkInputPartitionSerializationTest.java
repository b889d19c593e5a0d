package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.spark.ShippedObjects;
import io.basalt.spark.ShippedObjects.Setting;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Input partitions are part of every read task; they must survive any spark.serializer. */
class SparkInputPartitionSerializationTest {

  @ParameterizedTest
  @EnumSource(Setting.class)
  void survivesEverySerializer(Setting setting) {
    SparkInputPartition partition =
        new PackedInputPartition(List.of(ShippedObjects.split(), ShippedObjects.split()));
    assertThat(ShippedObjects.roundTrip(partition, setting)).isEqualTo(partition);
  }
}

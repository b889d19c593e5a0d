package io.basalt.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.spark.ShippedObjects;
import io.basalt.spark.ShippedObjects.Setting;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Commit messages travel from tasks to the driver with {@code spark.serializer}. */
class SparkCommitMessageSerializationTest {

  @ParameterizedTest
  @EnumSource(Setting.class)
  void survivesEverySerializer(Setting setting) {
    SparkCommitMessage message =
        new SparkCommitMessage(
            List.of(ShippedObjects.commitMessage(), ShippedObjects.commitMessage()));
    assertThat(ShippedObjects.roundTrip(message, setting)).isEqualTo(message);
  }
}

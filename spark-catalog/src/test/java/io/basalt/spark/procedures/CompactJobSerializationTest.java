package io.basalt.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.spark.ShippedObjects;
import io.basalt.spark.ShippedObjects.Setting;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A compaction's splits and results are parallelized and collected with spark.serializer. */
class CompactJobSerializationTest {

  @ParameterizedTest
  @EnumSource(Setting.class)
  void taskInputSurvivesEverySerializer(Setting setting) {
    CompactJob.TaskInput input = new CompactJob.TaskInput(ShippedObjects.split());
    assertThat(ShippedObjects.roundTrip(input, setting)).isEqualTo(input);
  }

  @ParameterizedTest
  @EnumSource(Setting.class)
  void taskResultsSurviveEverySerializer(Setting setting) {
    CompactJob.TaskResult done =
        new CompactJob.TaskResult(ShippedObjects.split(), ShippedObjects.commitMessage(), null);
    assertThat(ShippedObjects.roundTrip(done, setting)).isEqualTo(done);

    CompactJob.TaskResult failed =
        new CompactJob.TaskResult(
            ShippedObjects.split(), null, new IllegalStateException("bucket 1 is corrupt"));
    CompactJob.TaskResult back = ShippedObjects.roundTrip(failed, setting);
    assertThat(back.split()).isEqualTo(failed.split());
    assertThat(back.error())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("bucket 1 is corrupt");
  }
}

package io.basalt.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.spark.ShippedObjects;
import io.basalt.spark.ShippedObjects.Setting;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tasks of the postponed-bucket compaction and of sys.rescale are parallelized and collected
 * with spark.serializer, Kryo with registration required included.
 */
class BucketJobsSerializationTest {

  @ParameterizedTest
  @EnumSource(Setting.class)
  void postponedCompactionTasksSurviveEverySerializer(Setting setting) {
    PostponedCompactJob.TaskInput input =
        new PostponedCompactJob.TaskInput(ShippedObjects.split(), 4);
    assertThat(ShippedObjects.roundTrip(input, setting)).isEqualTo(input);
    PostponedCompactJob.TaskResult done =
        new PostponedCompactJob.TaskResult(
            ShippedObjects.split(), List.of(ShippedObjects.commitMessage()), null);
    assertThat(ShippedObjects.roundTrip(done, setting)).isEqualTo(done);
    PostponedCompactJob.TaskResult failed =
        new PostponedCompactJob.TaskResult(
            ShippedObjects.split(), null, new IllegalStateException("not parquet"));
    assertThat(ShippedObjects.roundTrip(failed, setting).error()).hasMessage("not parquet");
  }

  @ParameterizedTest
  @EnumSource(Setting.class)
  void rescaleTasksSurviveEverySerializer(Setting setting) {
    RescaleJob.TaskInput input =
        new RescaleJob.TaskInput(ShippedObjects.partition(), List.of(ShippedObjects.split()));
    assertThat(ShippedObjects.roundTrip(input, setting)).isEqualTo(input);
    RescaleJob.TaskResult done =
        new RescaleJob.TaskResult(
            ShippedObjects.partition(), List.of(ShippedObjects.commitMessage()), null);
    assertThat(ShippedObjects.roundTrip(done, setting)).isEqualTo(done);
    RescaleJob.TaskResult failed =
        new RescaleJob.TaskResult(
            ShippedObjects.partition(), null, new IllegalStateException("read failed"));
    assertThat(ShippedObjects.roundTrip(failed, setting).error()).hasMessage("read failed");
  }
}

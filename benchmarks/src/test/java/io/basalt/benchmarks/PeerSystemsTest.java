package io.basalt.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerSystemsTest {

  @Test
  void withoutTheOptionEverySystemRuns() {
    List<String> args = new ArrayList<>(List.of("--rows", "100"));
    assertThat(PeerSystems.takeSystems(args)).isEqualTo(PeerSystems.ALL);
    assertThat(args).containsExactly("--rows", "100");
  }

  @Test
  void theOptionIsTakenOutOfTheArguments() {
    List<String> args =
        new ArrayList<>(List.of("--rows", "100", "--systems", " Parquet, basalt-dv"));
    assertThat(PeerSystems.takeSystems(args)).containsExactly("parquet", "basalt-dv");
    assertThat(args).containsExactly("--rows", "100");
  }

  @Test
  void anUnknownSystemIsNamed() {
    List<String> args = new ArrayList<>(List.of("--systems", "parquet,hudi"));
    assertThatThrownBy(() -> PeerSystems.takeSystems(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown system 'hudi' in --systems; expected some of"
                + " parquet,iceberg,delta,basalt,basalt-dv");
  }

  @Test
  void aMissingValueIsReported() {
    List<String> args = new ArrayList<>(List.of("--rows", "100", "--systems"));
    assertThatThrownBy(() -> PeerSystems.takeSystems(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Missing value after --systems; expected some of"
                + " parquet,iceberg,delta,basalt,basalt-dv");
  }

  @Test
  void anEmptyValueIsReported() {
    List<String> args = new ArrayList<>(List.of("--systems", " , "));
    assertThatThrownBy(() -> PeerSystems.takeSystems(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--systems ' , ' names no system; expected some of"
                + " parquet,iceberg,delta,basalt,basalt-dv");
  }

  @Test
  void theUpsertIsAMergeOnTheWholeKey() {
    assertThat(PeerSystems.mergeInto("iceberg.bench.orders", "batch"))
        .isEqualTo(
            "MERGE INTO iceberg.bench.orders t USING batch s ON t.dt = s.dt AND t.order_id ="
                + " s.order_id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
  }
}

package io.basalt.benchmarks;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerChecksTest {
  // label() and id() need no session
  private final List<PeerSystem> systems =
      List.of(new ParquetPeer(null, Path.of("unused")), new BasaltPeer(null, true));

  @Test
  void equalResultsWithTheExpectedCountPass() {
    Map<String, List<String>> results =
        Map.of("parquet", List.of("[100,12345]"), "basalt-dv", List.of("[100,12345]"));
    assertThatCode(() -> PeerChecks.sameResults("full scan", systems, results, 100))
        .doesNotThrowAnyException();
  }

  @Test
  void aDifferentResultNamesBothSystemsAndValues() {
    Map<String, List<String>> results =
        Map.of("parquet", List.of("[100,12345]"), "basalt-dv", List.of("[100,12346]"));
    assertThatThrownBy(() -> PeerChecks.sameResults("full scan", systems, results, 100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Step 'full scan': Basalt DV returned [[100,12346]] where Parquet returned"
                + " [[100,12345]]");
  }

  @Test
  void aWrongCountOfTheBaselineFails() {
    Map<String, List<String>> results =
        Map.of("parquet", List.of("[99,12345]"), "basalt-dv", List.of("[99,12345]"));
    assertThatThrownBy(() -> PeerChecks.sameResults("scan after 1 upsert", systems, results, 100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Step 'scan after 1 upsert': Parquet returned [99,12345], expected a count of 100");
  }

  @Test
  void noRowsCheckNothingAndFail() {
    Map<String, List<String>> results = Map.of("parquet", List.of(), "basalt-dv", List.of());
    assertThatThrownBy(() -> PeerChecks.sameResults("point lookup", systems, results, -1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Step 'point lookup': Parquet returned no rows; the step checks nothing");
  }

  @Test
  void aMissingCountIsReportedAsNoRows() {
    Map<String, List<String>> results = Map.of("parquet", List.of(), "basalt-dv", List.of());
    assertThatThrownBy(() -> PeerChecks.sameResults("full scan", systems, results, 5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Step 'full scan': Parquet returned no rows, expected a count of 5");
  }
}

package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each {@code with...} copy changes its own components and keeps every other one. */
class DataFileMetaTest {
  private static final DataFileMeta FILE =
      ManifestEntryCodecTest.fileWithEverything("data-a-0.parquet");

  @Test
  void withLevelChangesOnlyTheLevel() {
    DataFileMeta moved = FILE.withLevel(FILE.level() + 2);
    assertThat(moved.level()).isEqualTo(FILE.level() + 2);
    assertThat(moved).usingRecursiveComparison().ignoringFields("level").isEqualTo(FILE);
  }

  @Test
  void withRowTrackingChangesOnlyTheRowIdAndSequenceRange() {
    DataFileMeta tracked = FILE.withRowTracking(77L, 5, 9);
    assertThat(tracked.firstRowId()).isEqualTo(77L);
    assertThat(tracked.minSequenceNumber()).isEqualTo(5);
    assertThat(tracked.maxSequenceNumber()).isEqualTo(9);
    assertThat(tracked)
        .usingRecursiveComparison()
        .ignoringFields("firstRowId", "minSequenceNumber", "maxSequenceNumber")
        .isEqualTo(FILE);
  }

  @Test
  void withValueStatsColsAndWriteColsChangeOnlyTheirColumns() {
    DataFileMeta stats = FILE.withValueStatsCols(List.of("a"));
    assertThat(stats.valueStatsCols()).containsExactly("a");
    assertThat(stats).usingRecursiveComparison().ignoringFields("valueStatsCols").isEqualTo(FILE);

    DataFileMeta cols = FILE.withWriteCols(null);
    assertThat(cols.writeCols()).isNull();
    assertThat(cols).usingRecursiveComparison().ignoringFields("writeCols").isEqualTo(FILE);
  }
}

package io.basalt.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.Tag;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Automatic tag creation and retention, driven by hand-written snapshots whose commit times and
 * watermarks the test chooses.
 */
class AutomaticTagsTest {
  @TempDir Path dir;

  private FileStoreTable table;

  private void table(String... options) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    table = TestTables.create(dir, false, List.of(), map);
  }

  private static long local(int day, int hour, int minute) {
    return LocalDateTime.of(2024, 12, day, hour, minute)
        .atZone(ZoneId.systemDefault())
        .toInstant()
        .toEpochMilli();
  }

  /** Commits a snapshot with these times and runs the post-commit tag maintenance. */
  private Snapshot commit(long timeMillis, Long watermark, long identifier) throws IOException {
    Snapshot snapshot = write(timeMillis, watermark, identifier);
    new AutomaticTags().afterCommit(table, snapshot);
    return snapshot;
  }

  private Snapshot write(long timeMillis, Long watermark, long identifier) throws IOException {
    Long latest = TestTables.latestId(table);
    Snapshot snapshot =
        new Snapshot(
            Snapshot.CURRENT_VERSION,
            latest == null ? 1 : latest + 1,
            0,
            "base",
            null,
            "delta",
            null,
            null,
            null,
            null,
            "user",
            identifier,
            CommitKind.APPEND,
            timeMillis,
            Map.of(),
            0L,
            0L,
            0L,
            watermark,
            null,
            null,
            0L);
    assertThat(table.snapshotManager().tryCommit(snapshot)).isTrue();
    return snapshot;
  }

  private Map<String, Long> tags() {
    Map<String, Long> result = new HashMap<>();
    table.tagManager().tags().forEach((name, snapshot) -> result.put(name, snapshot.id()));
    return result;
  }

  @Test
  void processTimeTagsEachDayOnTheFirstCommitAfterIt() throws IOException {
    table("tag.automatic-creation", "process-time");
    commit(local(1, 10, 0), null, 1);
    // the first snapshot ever tags the period before it
    assertThat(tags()).containsExactlyInAnyOrderEntriesOf(Map.of("2024-11-30", 1L));
    commit(local(1, 23, 0), null, 1);
    assertThat(tags()).hasSize(1);
    commit(local(2, 0, 30), null, 1);
    commit(local(2, 5, 0), null, 1);
    commit(local(4, 1, 0), null, 1); // day 3 passed without commits: no tag for day 2
    assertThat(tags())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("2024-11-30", 1L, "2024-12-01", 3L, "2024-12-03", 5L));
  }

  @Test
  void delayHoldsTheTagBack() throws IOException {
    table(
        "tag.automatic-creation", "process-time",
        "tag.creation-period", "hourly",
        "tag.creation-delay", "10 min");
    commit(local(1, 9, 30), null, 1);
    assertThat(tags()).containsOnlyKeys("2024-12-01 08");
    commit(local(1, 10, 5), null, 1); // hour 9 ended, but not 10 minutes ago
    assertThat(tags()).containsOnlyKeys("2024-12-01 08");
    commit(local(1, 10, 10), null, 1);
    assertThat(tags()).containsEntry("2024-12-01 09", 3L).hasSize(2);
  }

  @Test
  void watermarkModeUsesTheSnapshotWatermarkInItsZone() throws IOException {
    table(
        "tag.automatic-creation", "watermark",
        "tag.creation-period", "two-hours",
        "sink.watermark-time-zone", "UTC");
    long base = LocalDateTime.of(2024, 12, 4, 9, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    commit(base, null, 1); // no watermark yet: nothing to go by
    assertThat(tags()).isEmpty();
    commit(base, base, 1);
    assertThat(tags()).containsOnlyKeys("2024-12-04 06");
    commit(base, base + Duration.ofMinutes(59).toMillis(), 1);
    assertThat(tags()).hasSize(1);
    commit(base, base + Duration.ofHours(1).toMillis(), 1); // 10:00 ends period 08-10
    assertThat(tags()).containsEntry("2024-12-04 08", 4L).hasSize(2);
  }

  @Test
  void tagsMissedByEarlierCommitsAreCreatedLater() throws IOException {
    table("tag.automatic-creation", "process-time", "tag.period-formatter", "without_dashes");
    write(local(1, 10, 0), null, 1);
    write(local(2, 1, 0), null, 1);
    write(local(2, 2, 0), null, 1);
    write(local(3, 1, 0), null, 1);
    commit(local(3, 2, 0), null, 1);
    assertThat(tags())
        .containsExactlyInAnyOrderEntriesOf(Map.of("20241130", 1L, "20241201", 2L, "20241202", 4L));
  }

  @Test
  void oldestAutomaticTagsGoBeyondTheMaximumAndManualTagsStay() throws IOException {
    table("tag.automatic-creation", "process-time", "tag.num-retained-max", "2");
    Snapshot first = commit(local(1, 10, 0), null, 1);
    table.tagManager().create("release", first);
    for (int day = 2; day <= 5; day++) {
      commit(local(day, 1, 0), null, 1);
    }
    assertThat(tags()).containsOnlyKeys("release", "2024-12-03", "2024-12-04");
  }

  @Test
  void automaticTagsCarryTheDefaultRetentionAndTheNewestIsSpared() throws IOException {
    table("tag.automatic-creation", "process-time", "tag.default-time-retained", "1 ms");
    commit(local(1, 10, 0), null, 1);
    Tag tag = table.tagManager().tagObject("2024-11-30").orElseThrow();
    assertThat(tag.timeRetained()).isEqualTo(Duration.ofMillis(1));
    assertThat(tag.createTime()).isNotNull();
    // long expired, but it is the newest automatic tag: the next commit keeps it
    commit(local(1, 11, 0), null, 1);
    assertThat(tags()).containsOnlyKeys("2024-11-30");
    // once a newer automatic tag exists, the old one expires with the next commit
    commit(local(2, 1, 0), null, 1);
    commit(local(2, 2, 0), null, 1);
    assertThat(tags()).containsOnlyKeys("2024-12-01");
    // an explicit expiration takes every tag whose time is up
    assertThat(new TagExpiration(table).expire(LocalDateTime.now().plusDays(1), null, Set.of()))
        .containsExactly("2024-12-01");
  }

  @Test
  void batchModeTagsEachBatchCommitAndReplacesTheSamePeriod() throws IOException {
    table("tag.automatic-creation", "batch");
    commit(local(1, 10, 0), null, Snapshot.BATCH_COMMIT_IDENTIFIER);
    assertThat(tags()).containsExactlyInAnyOrderEntriesOf(Map.of("batch-write-2024-12-01", 1L));
    commit(local(1, 11, 0), null, Snapshot.BATCH_COMMIT_IDENTIFIER);
    commit(local(1, 12, 0), null, 7); // a streaming commit: no batch tag
    commit(local(2, 9, 0), null, Snapshot.BATCH_COMMIT_IDENTIFIER);
    assertThat(tags())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("batch-write-2024-12-01", 2L, "batch-write-2024-12-02", 4L));
  }

  @Test
  void noneCreatesNothing() throws IOException {
    table();
    commit(local(1, 10, 0), null, 1);
    commit(local(3, 10, 0), null, 1);
    assertThat(tags()).isEmpty();
  }

  @Test
  void invalidSettingsNameTheOptionAndValue() {
    assertThatThrownBy(() -> settings("tag.creation-period", "weekly"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Invalid value 'weekly' for option 'tag.creation-period' on table db.t")
        .hasMessageContaining("daily, hourly, two-hours");
    assertThatThrownBy(() -> settings("tag.automatic-creation", "sometimes"))
        .hasMessageContaining("Invalid value 'sometimes' for option 'tag.automatic-creation'");
    assertThatThrownBy(() -> settings("tag.creation-delay", "ten minutes"))
        .hasMessageContaining("Invalid value 'ten minutes' for option 'tag.creation-delay'");
    assertThatThrownBy(() -> settings("tag.creation-period", "hourly", "tag.creation-delay", "1 h"))
        .hasMessageContaining(
            "Option 'tag.creation-delay' = '1 h' on table db.t must be shorter than one"
                + " 'tag.creation-period' period ('hourly' = 1 h)");
    assertThatThrownBy(() -> settings("tag.num-retained-max", "0"))
        .hasMessageContaining("Invalid value '0' for option 'tag.num-retained-max' on table db.t");
    assertThatThrownBy(() -> settings("tag.default-time-retained", "forever"))
        .hasMessageContaining("Invalid value 'forever' for option 'tag.default-time-retained'");
    assertThatThrownBy(() -> settings("sink.watermark-time-zone", "Mars/Base"))
        .hasMessageContaining("Invalid value 'Mars/Base' for option 'sink.watermark-time-zone'");
  }

  private static TagSettings settings(String... options) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return TagSettings.of(new Options(map, "table db.t"));
  }
}

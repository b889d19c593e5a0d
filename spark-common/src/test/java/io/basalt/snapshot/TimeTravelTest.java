package io.basalt.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.options.Options;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tags and time-travel resolution over hand-written snapshot files. */
class TimeTravelTest {
  @TempDir Path dir;

  private SnapshotManager snapshots;
  private TagManager tags;
  private TimeTravel timeTravel;

  @BeforeEach
  void setUp() {
    FileIO fileIO = FileIO.local();
    TablePaths paths = new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri()));
    snapshots = new SnapshotManager(fileIO, paths);
    tags = new TagManager(fileIO, paths, "db.t");
    timeTravel = new TimeTravel(snapshots, tags, "db.t");
  }

  private static Snapshot snapshot(long id, long timeMillis, Long watermark) {
    return new Snapshot(
        Snapshot.CURRENT_VERSION,
        id,
        0,
        "b",
        null,
        "d",
        null,
        null,
        null,
        null,
        "u",
        Snapshot.BATCH_COMMIT_IDENTIFIER,
        CommitKind.APPEND,
        timeMillis,
        null,
        null,
        null,
        null,
        watermark,
        null,
        null,
        0L);
  }

  /** Snapshots 1..5 committed at 1000, 2000, ..., watermarks 10, null, 30, null, 50. */
  private void fiveSnapshots() throws IOException {
    for (long id = 1; id <= 5; id++) {
      assertThat(snapshots.tryCommit(snapshot(id, id * 1000, id % 2 == 1 ? id * 10 : null)))
          .isTrue();
    }
  }

  @Test
  void tagsAreCreatedListedRenamedAndDeleted() throws IOException {
    fiveSnapshots();
    tags.create("b", snapshots.snapshot(2));
    tags.create("a", snapshots.snapshot(4));
    assertThat(tags.tagNames()).containsExactly("a", "b");
    assertThat(tags.get("b")).isEqualTo(snapshots.snapshot(2));
    assertThat(tags.tags()).containsOnlyKeys("a", "b");

    assertThatThrownBy(() -> tags.create("a", snapshots.snapshot(1)))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Tag 'a' already exists on table db.t")
        .hasMessageContaining("snapshot 4");
    assertThat(tags.get("a").id()).isEqualTo(4);

    tags.rename("a", "c");
    assertThat(tags.tagNames()).containsExactly("b", "c");
    assertThat(tags.get("c").id()).isEqualTo(4);
    assertThatThrownBy(() -> tags.rename("b", "c")).hasMessageContaining("Tag 'c' already exists");
    assertThat(tags.tagNames()).containsExactly("b", "c");

    tags.delete("b");
    assertThat(tags.tagNames()).containsExactly("c");
    assertThatThrownBy(() -> tags.delete("b"))
        .hasMessage("Tag 'b' does not exist on table db.t; existing tags: c");
    assertThatThrownBy(() -> tags.get("zz"))
        .hasMessage("Tag 'zz' does not exist on table db.t; existing tags: c");
    assertThatThrownBy(() -> tags.create("../x", snapshots.snapshot(1)))
        .hasMessageContaining("Invalid tag name '../x' for table db.t");
  }

  @Test
  void tagIsStoredAsTheSnapshotJson() throws IOException {
    fiveSnapshots();
    tags.create("t", snapshots.snapshot(3));
    FileIO fileIO = FileIO.local();
    TablePaths paths = new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri()));
    assertThat(fileIO.readUtf8(paths.tagFile("t")))
        .isEqualTo(fileIO.readUtf8(paths.snapshotFile(3)));
  }

  @Test
  void versionPrefersTagThenWatermarkThenSnapshotId() throws IOException {
    fiveSnapshots();
    assertThat(timeTravel.version("1").id()).isEqualTo(1);
    tags.create("1", snapshots.snapshot(2));
    assertThat(timeTravel.version("1").id()).isEqualTo(2);
    assertThat(timeTravel.version("watermark-20").id()).isEqualTo(3);
    assertThat(timeTravel.version("watermark-10").id()).isEqualTo(1);
    assertThat(timeTravel.version("4").id()).isEqualTo(4);
    assertThatThrownBy(() -> timeTravel.version("nope"))
        .hasMessage(
            "Cannot find a time travel version for nope in table db.t: it is no tag (existing"
                + " tags: 1), no 'watermark-<n>' and no snapshot id");
    assertThatThrownBy(() -> timeTravel.version("9"))
        .hasMessage(
            "Snapshot 9 of table db.t does not exist (expired or not yet written); existing"
                + " snapshots are 1 to 5");
    assertThatThrownBy(() -> timeTravel.version("watermark-51"))
        .hasMessage(
            "Table db.t has no snapshot with a watermark >= 51; the latest watermark is 50");
  }

  @Test
  void timestampPicksTheLatestSnapshotAtOrBefore() throws IOException {
    fiveSnapshots();
    assertThat(timeTravel.asOfTimestamp(1000).id()).isEqualTo(1);
    assertThat(timeTravel.asOfTimestamp(2999).id()).isEqualTo(2);
    assertThat(timeTravel.asOfTimestamp(3000).id()).isEqualTo(3);
    assertThat(timeTravel.asOfTimestamp(99_999).id()).isEqualTo(5);
    assertThatThrownBy(() -> timeTravel.asOfTimestamp(999))
        .hasMessageContaining("Table db.t has no snapshot committed at or before")
        .hasMessageContaining("the earliest snapshot is 1, committed at");
  }

  @Test
  void optionsSelectOneSnapshotAndRejectConflicts() throws IOException {
    fiveSnapshots();
    tags.create("t", snapshots.snapshot(2));
    assertThat(timeTravel.fromOptions(new Options(Map.of(), "x"))).isEmpty();
    assertThat(opt("scan.snapshot-id", "3").id()).isEqualTo(3);
    assertThat(opt("scan.tag-name", "t").id()).isEqualTo(2);
    assertThat(opt("scan.timestamp-millis", "4500").id()).isEqualTo(4);
    assertThat(opt("scan.watermark", "40").id()).isEqualTo(5);
    assertThatThrownBy(
            () ->
                timeTravel.fromOptions(
                    new Options(Map.of("scan.snapshot-id", "3", "scan.tag-name", "t"), "x")))
        .hasMessage(
            "Conflicting time-travel options on db.t: 'scan.snapshot-id' = '3' and"
                + " 'scan.tag-name' = 't'. Fix: set only one of them.");
  }

  @Test
  void emptyTableHasNothingToTravelTo() {
    assertThatThrownBy(() -> timeTravel.asOfTimestamp(1))
        .hasMessage("Cannot time travel on table db.t: it has no snapshots");
    assertThatThrownBy(() -> timeTravel.snapshot(1))
        .hasMessage(
            "Snapshot 1 of table db.t does not exist (expired or not yet written); the table has"
                + " no snapshots");
  }

  private Snapshot opt(String key, String value) {
    return timeTravel.fromOptions(new Options(Map.of(key, value), "x")).orElseThrow();
  }
}

package io.basalt.operation.expire;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.schema.SchemaFactory;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.testing.TrackingFileSystem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration reads the manifests of the tags that can hold a file it deletes (the newest tag before
 * the expired range and the tags inside it), each manifest once: tags after the range or older tags
 * cost nothing. Every tag still reads as before.
 */
class ExpireSnapshotsReadsTest {
  @TempDir Path dir;

  @BeforeEach
  void reset() {
    TrackingFileSystem.reset();
  }

  private FileStoreTable table(String name) {
    return FileStoreTable.create(
        TrackingFileSystem.fileIO(),
        TrackingFileSystem.path(dir.resolve(name)),
        "db." + name,
        SchemaFactory.create(
            0,
            TestTables.ID_V,
            List.of(),
            List.of("id"),
            // frequent compactions: their deltas delete files the tags may still hold
            Map.of(
                "bucket",
                "1",
                "num-sorted-run.compaction-trigger",
                "2",
                "commit.single-writer",
                "true"),
            null));
  }

  private static void commits(FileStoreTable table, int from, int to) {
    for (int c = from; c < to; c++) {
      TestTables.upsert(table, Map.of((long) (c % 3), "v" + c, 100L + c, "w" + c));
    }
  }

  private static long latest(FileStoreTable table) {
    return table.snapshotManager().latestSnapshotId().getAsLong();
  }

  /** Expires so that snapshots from {@code keepFrom} on stay; returns the manifest files opened. */
  private static int expireCountingReads(FileStoreTable table, long keepFrom) {
    int retain = (int) (latest(table) - keepFrom + 1);
    TrackingFileSystem.reset();
    int expired = new ExpireSnapshots(table).expire(1, retain, Long.MIN_VALUE, Integer.MAX_VALUE);
    assertThat(expired).isPositive();
    assertThat(table.snapshotManager().earliestSnapshotId().getAsLong()).isEqualTo(keepFrom);
    return TrackingFileSystem.opened("manifest-");
  }

  private static Map<String, TreeMap<Long, String>> readTags(FileStoreTable table) {
    Map<String, TreeMap<Long, String>> rows = new LinkedHashMap<>();
    for (Map.Entry<String, Snapshot> tag : table.tagManager().tags().entrySet()) {
      rows.put(
          tag.getKey(), TestTables.readAll(table, table.newScan().withSnapshot(tag.getValue())));
    }
    return rows;
  }

  @Test
  void tagsOutsideTheExpiredRangeAreNotRead() {
    FileStoreTable few = table("few");
    FileStoreTable many = table("many");
    for (FileStoreTable table : List.of(few, many)) {
      commits(table, 0, 6);
      table.tagManager().create("early", table.snapshotManager().snapshot(4));
      commits(table, 6, 12);
    }
    long firstRangeEnd = latest(few) - 10;
    long secondRangeEnd = latest(few) - 4;
    // older tags below the newest tag before the range, and many tags after the range
    many.tagManager().create("older", many.snapshotManager().snapshot(2));
    for (long id = secondRangeEnd; id <= latest(many); id++) {
      many.tagManager().create("late-" + id, many.snapshotManager().snapshot(id));
    }
    Map<String, TreeMap<Long, String>> before = readTags(many);
    assertThat(before).hasSize((int) (latest(many) - secondRangeEnd + 3));

    // the first run expires the tagged snapshots: tag "early" lies inside its range
    expireCountingReads(few, firstRangeEnd);
    expireCountingReads(many, firstRangeEnd);
    // the second run: "early" is the newest tag before the range, "older" and "late-*" are skipped
    int readsFew = expireCountingReads(few, secondRangeEnd);
    int readsMany = expireCountingReads(many, secondRangeEnd);
    assertThat(readsMany).isEqualTo(readsFew);

    // nothing a tag holds was deleted
    assertThat(readTags(many)).isEqualTo(before);
    assertThat(TestTables.readAll(many)).isEqualTo(TestTables.readAll(few));
  }

  @Test
  void eachManifestIsReadAtMostTwicePerRun() {
    FileStoreTable table = table("t");
    commits(table, 0, 12);
    for (long id = 2; id < latest(table) - 4; id++) {
      table.tagManager().create("tag-" + id, table.snapshotManager().snapshot(id));
    }
    Map<String, TreeMap<Long, String>> before = readTags(table);
    long keepFrom = latest(table) - 2;
    int retain = (int) (latest(table) - keepFrom + 1);
    TrackingFileSystem.reset();
    new ExpireSnapshots(table).expire(1, retain, Long.MIN_VALUE, Integer.MAX_VALUE);
    // once to find what the expired deltas delete, once to check the tags that may hold it;
    // manifest lists once
    assertThat(TrackingFileSystem.openedMoreThan("manifest-", 2)).isEmpty();
    assertThat(TrackingFileSystem.openedMoreThan("manifest-list-", 1)).isEmpty();
    assertThat(readTags(table)).isEqualTo(before);
  }
}

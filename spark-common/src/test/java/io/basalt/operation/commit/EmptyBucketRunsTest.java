package io.basalt.operation.commit;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.CompactionSettings;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write's only run into an empty bucket goes straight to the top level, and the commit moves it
 * back to level 0 when another writer reached the bucket first (two writers interleaved by hand).
 */
class EmptyBucketRunsTest {
  @TempDir Path dir;

  private FileStoreTable table(Map<String, String> extra) {
    return table(dir, extra);
  }

  private static FileStoreTable table(Path dir, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    // only deletion-vector tables put a first run on the top level
    options.putIfAbsent("deletion-vectors.enabled", "true");
    options.put("bucket", "1");
    options.put("commit.min-retry-wait", "1");
    options.put("commit.max-retry-wait", "5");
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.toUri()),
        "db.t",
        SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), options, null));
  }

  /** Prepares a write of {@code values} on the latest snapshot, without committing it. */
  private static List<CommitMessage> write(FileStoreTable table, Map<Long, String> values) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    values.forEach((id, v) -> write.write(row(id, v)));
    return write.prepareCommit();
  }

  private static List<Integer> levels(FileStoreTable table) {
    List<Integer> levels = new ArrayList<>();
    for (ManifestEntry entry :
        table.newScan().forCompaction().liveEntries(table.latestSnapshot().orElseThrow())) {
      levels.add(entry.file().level());
    }
    levels.sort(null);
    return levels;
  }

  private static int maxLevel(FileStoreTable table) {
    return CompactionSettings.of(table.options()).maxLevel();
  }

  @Test
  void theFirstWriteOfABucketGoesToTheTopLevelAndTheNextToLevel0() {
    FileStoreTable table = table(Map.of());
    List<CommitMessage> first = write(table, Map.of(1L, "a", 2L, "a", 3L, "a"));
    table.newCommit("u").commit(first, 1);
    assertThat(levels(table)).containsExactly(maxLevel(table));

    List<CommitMessage> next = write(table, Map.of(2L, "b", 4L, "b"));
    assertThat(next.get(0).newFiles()).allMatch(f -> f.level() == 0);
    table.newCommit("u").commit(next, 2);

    // reads skip level 0: the next run was promoted above it
    assertThat(levels(table)).doesNotContain(0).doesNotHaveDuplicates();
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(Map.of(1L, "a", 2L, "b", 3L, "a", 4L, "b")));
  }

  @Test
  void aMergeOnReadTableKeepsItsFirstWriteOnLevel0AsPaimonDoes() {
    FileStoreTable table = table(Map.of("deletion-vectors.enabled", "false"));
    List<CommitMessage> first = write(table, Map.of(1L, "a", 2L, "a"));
    assertThat(first.get(0).newFiles()).allMatch(f -> f.level() == 0);
    table.newCommit("u").commit(first, 1);

    assertThat(levels(table)).containsExactly(0);
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(Map.of(1L, "a", 2L, "a")));
  }

  @Test
  void twoWritersCommittedTogetherIntoOneEmptyBucketBothLandOnLevel0() {
    FileStoreTable table = table(Map.of());
    // each writer found the bucket empty; committed in one snapshot, neither may hold the top level
    List<CommitMessage> both = new ArrayList<>(write(table, Map.of(1L, "a", 3L, "a")));
    both.addAll(write(table, Map.of(2L, "b", 4L, "b")));
    assertThat(both).allMatch(m -> m.newFiles().get(0).level() == maxLevel(table));

    table.newCommit("u").commit(both, 1);

    // both went back to level 0, then the promotion merged them above it: never two runs a level
    assertThat(levels(table)).doesNotContain(0).doesNotHaveDuplicates();
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(Map.of(1L, "a", 2L, "b", 3L, "a", 4L, "b")));
  }

  @Test
  void aRunThatWentBackToLevel0OfADeletionVectorTableIsPromotedAndVisible() {
    FileStoreTable table = table(Map.of("deletion-vectors.enabled", "true"));
    List<CommitMessage> a = write(table, Map.of(1L, "a", 2L, "a"));
    List<CommitMessage> b = write(table, Map.of(2L, "b", 3L, "b"));
    assertThat(b.get(0).newFiles()).allMatch(f -> f.level() == maxLevel(table));

    table.newCommit("a").commit(a, 1);
    table.newCommit("b").commit(b, 1);

    // reads skip level 0: B's run was moved there at commit, then promoted above it
    assertThat(levels(table)).doesNotContain(0).hasSize(2);
    assertThat(readAll(table)).containsEntry(1L, "a").containsEntry(3L, "b").hasSize(3);
  }

  @Test
  void aDeletionVectorTableLoadIsWrittenOnceAtTheTopLevel() {
    FileStoreTable table = table(Map.of("deletion-vectors.enabled", "true"));
    List<CommitMessage> load = write(table, Map.of(1L, "a", 2L, "a"));

    assertThat(load.get(0).hasCompaction()).isFalse();
    table.newCommit("u").commit(load, 1);
    assertThat(levels(table)).containsExactly(maxLevel(table));
    assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(1L); // no COMPACT snapshot
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(Map.of(1L, "a", 2L, "a")));
  }

  @Test
  void deletionVectorUpsertsNeverRewriteTheLoadWhenTheLevelsFillUp() {
    FileStoreTable table = table(Map.of("deletion-vectors.enabled", "true"));
    TreeMap<Long, String> model = new TreeMap<>();
    // a load far larger than the rounds, as in an upsert workload (else size amplification applies)
    for (long id = 0; id < 20_000; id++) {
      model.put(id, "load-" + id);
    }
    table.newCommit("u").commit(write(table, model), 1);
    String load = topFile(table);

    // more rounds than levels 1 to 4 can hold, one run each; each round four times the last, so
    // no size-ratio pick merges them first
    for (int round = 1; round <= 6; round++) {
      Map<Long, String> batch = new HashMap<>(Map.of((long) round, "r" + round));
      for (long i = 0; i < 10L << (2 * Math.min(round, 4)); i++) {
        batch.put(100_000L * round + i, "r" + round + "-" + i);
      }
      model.putAll(batch);
      table.newCommit("u").commit(write(table, batch), round + 1);
      assertThat(readAll(table)).as("round %s", round).isEqualTo(model);
      assertThat(levels(table)).as("round %s", round).doesNotContain(0);
    }
    assertThat(topFile(table)).isEqualTo(load);
  }

  private static String topFile(FileStoreTable table) {
    return table
        .newScan()
        .forCompaction()
        .liveEntries(table.latestSnapshot().orElseThrow())
        .stream()
        .filter(e -> e.file().level() == maxLevel(table))
        .map(e -> e.file().fileName())
        .reduce((a, b) -> a + "," + b)
        .orElse("");
  }

  @Test
  void aFirstWriteHoldingRetractionsStaysOnLevel0() {
    FileStoreTable table = table(Map.of());
    TableWrite write = table.newWrite(null, false);
    write.write(row(1L, "a"));
    write.write(row(2L, "a"), RowKind.DELETE);
    List<CommitMessage> messages = write.prepareCommit();
    assertThat(messages.get(0).newFiles()).allMatch(f -> f.level() == 0);
    table.newCommit("u").commit(messages, 1);

    assertThat(readAll(table)).isEqualTo(new TreeMap<>(Map.of(1L, "a")));
  }

  @Test
  void producersThatWriteTheirChangelogWhenRowsMoveUpKeepTheNewRunOnLevel0() {
    for (String producer : List.of("lookup", "full-compaction")) {
      FileStoreTable table = table(dir.resolve(producer), Map.of("changelog-producer", producer));
      List<CommitMessage> messages = write(table, Map.of(1L, "a"));
      assertThat(messages.get(0).newFiles()).as(producer).allMatch(f -> f.level() == 0);
      table.newCommit("u").commit(messages, 1);
      assertThat(readAll(table)).as(producer).isEqualTo(new TreeMap<>(Map.of(1L, "a")));
    }
  }

  private static Map<Long, String> manyRows() {
    Map<Long, String> rows = new HashMap<>();
    for (long i = 0; i < 1500; i++) {
      rows.put(i, "value-" + i);
    }
    return rows;
  }

  @Test
  void aWriteThatFlushedMoreThanOnceStaysOnLevel0() {
    // a small buffer without spilling: the write flushes several runs
    FileStoreTable table =
        table(Map.of("write-buffer-size", "8kb", "write-buffer-spillable", "false"));
    List<CommitMessage> messages = write(table, manyRows());

    // (the write's own compactions may still move them up later, by merging)
    assertThat(messages.get(0).newFiles()).hasSizeGreaterThan(1).allMatch(f -> f.level() == 0);
    table.newCommit("u").commit(messages, 1);
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(manyRows()));
  }

  @Test
  void aWriteThatSpilledIsOneRunAndGoesToTheTopLevel() {
    // spills are merged into one sorted run at the end of the write
    FileStoreTable table = table(Map.of("write-buffer-size", "8kb"));
    table.newCommit("u").commit(write(table, manyRows()), 1);

    assertThat(levels(table)).isNotEmpty().allMatch(level -> level == maxLevel(table));
    assertThat(readAll(table)).isEqualTo(new TreeMap<>(manyRows()));
  }
}

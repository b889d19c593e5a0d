package io.basalt.operation.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.RollingManifestWriter;
import io.basalt.manifest.SimpleStats;
import io.basalt.operation.scan.LiveFiles;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits simulated on manifests alone (each commit writes its delta manifest, then merges the
 * previous snapshot's base and delta, as FileStoreCommit does): the metadata a commit rewrites
 * stays bounded however many full-size manifests exist, and the merged manifests still list exactly
 * the live files.
 */
class ManifestMergerTest {
  private static final StructType PARTITION = new StructType().add("dt", DataTypes.StringType);
  private static final BinaryRowCodec CODEC = new BinaryRowCodec(PARTITION);
  private static final long TARGET = 16 << 10;
  private static final int MIN_COUNT = 30;

  @TempDir Path dir;

  private ManifestFiles files;
  private List<ManifestFileMeta> base = new ArrayList<>();
  private List<ManifestFileMeta> delta = new ArrayList<>();

  /** Live files of the model: name -> entry. */
  private final Map<String, ManifestEntry> live = new LinkedHashMap<>();

  @BeforeEach
  void setUp() {
    files =
        new ManifestFiles(
            FileIO.local(),
            new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri())),
            PARTITION,
            TARGET);
  }

  private static BinaryRow partition(String dt) {
    return CODEC.toBinary(new GenericInternalRow(new Object[] {UTF8String.fromString(dt)}));
  }

  private static ManifestEntry add(String dt, int bucket) {
    DataFileMeta file =
        DataFileMeta.newFile(
            "data-" + UUID.randomUUID() + "-0.parquet",
            1000,
            10,
            BinaryRow.EMPTY,
            BinaryRow.EMPTY,
            SimpleStats.EMPTY,
            SimpleStats.EMPTY,
            0,
            9,
            0,
            0,
            0,
            DataFileMeta.SOURCE_APPEND,
            null);
    return new ManifestEntry(FileKind.ADD, partition(dt), bucket, 4, file);
  }

  /** One commit of {@code changes}; returns the merger that built the new base. */
  private ManifestMerger commit(List<ManifestEntry> changes, long threshold) {
    for (ManifestEntry change : changes) {
      if (change.kind() == FileKind.ADD) {
        live.put(change.file().fileName(), change);
      } else {
        live.remove(change.file().fileName());
      }
    }
    RollingManifestWriter writer = files.newManifestWriter(0);
    changes.forEach(writer::write);
    List<ManifestFileMeta> newDelta = writer.result();
    List<ManifestFileMeta> previous = new ArrayList<>(base);
    previous.addAll(delta);
    ManifestMerger merger = new ManifestMerger(files, MIN_COUNT, TARGET, threshold);
    base = merger.merge(previous, 0, "test table");
    delta = newDelta;
    return merger;
  }

  private Set<String> listedLiveFiles() {
    LiveFiles folded = new LiveFiles("test table");
    List<ManifestFileMeta> all = new ArrayList<>(base);
    all.addAll(delta);
    for (ManifestFileMeta meta : all) {
      try (CloseableIterator<ManifestEntry> it = files.readManifest(meta.fileName())) {
        it.forEachRemaining(folded::apply);
      }
    }
    assertThat(folded.unmatchedDeletes()).isEmpty();
    Set<String> names = new TreeSet<>();
    folded.entries().forEach(e -> names.add(e.file().fileName()));
    return names;
  }

  private long fullSizeManifests() {
    return base.stream().filter(m -> m.fileSize() >= TARGET).count();
  }

  @Test
  void appendsNeverRewriteFullSizeManifestsHoweverManyExist() {
    int maxWritten = 0;
    for (int c = 0; c < 400; c++) {
      List<ManifestEntry> changes = new ArrayList<>();
      for (int f = 0; f < 80; f++) {
        changes.add(add("p" + (c % 7), f % 4));
      }
      ManifestMerger merger = commit(changes, 16L << 20);
      maxWritten = Math.max(maxWritten, merger.newFiles().size());
      // merging never reaches back into manifests already full: only the small tail is folded
      assertThat(merger.newFiles()).as("manifests written by commit %d", c).hasSizeLessThan(4);
    }
    // the table passed the old cliff: more than min-count full-size manifests
    assertThat(fullSizeManifests()).isGreaterThan(MIN_COUNT);
    assertThat(base.size()).isLessThan((int) fullSizeManifests() + MIN_COUNT + 2);
    assertThat(listedLiveFiles()).isEqualTo(new TreeSet<>(live.keySet()));
  }

  @Test
  void compactionsFullyMergeOnlyOnceTheDeltaIsLargeAndOnlyWhereTheyDelete() {
    long threshold = 4 * TARGET;
    int fullCompactions = 0;
    for (int c = 0; c < 300; c++) {
      List<ManifestEntry> changes = new ArrayList<>();
      String dt = "p" + (c % 5);
      if (c % 10 == 9) {
        // a compaction of one recent partition: its files are replaced by one
        String compacted = "p" + (c % 5);
        for (ManifestEntry entry : new ArrayList<>(live.values())) {
          if (entry.partition().equals(partition(compacted))) {
            changes.add(entry.asDelete());
          }
        }
        changes.add(add(compacted, 0));
      } else {
        for (int f = 0; f < 40; f++) {
          changes.add(add(dt, f % 4));
        }
      }
      List<String> before = new ArrayList<>();
      base.forEach(m -> before.add(m.fileName()));
      ManifestMerger merger = commit(changes, threshold);
      if (merger.fullCompacted()) {
        fullCompactions++;
      } else {
        assertThat(merger.newFiles()).as("manifests written by commit %d", c).hasSizeLessThan(4);
      }
    }
    // a full compaction needs a delta of the threshold size: far fewer than one per compaction
    assertThat(fullCompactions).isBetween(1, 300 / 10 / 2);
    assertThat(listedLiveFiles()).isEqualTo(new TreeSet<>(live.keySet()));
  }

  @Test
  void aFullCompactionKeepsTheFullSizeManifestsOfPartitionsItDoesNotDelete() {
    // two partitions, each in its own full-size manifests
    for (String dt : List.of("a", "b")) {
      for (int c = 0; c < 4; c++) {
        List<ManifestEntry> changes = new ArrayList<>();
        for (int f = 0; f < 600; f++) {
          changes.add(add(dt, 0));
        }
        commit(changes, Long.MAX_VALUE);
      }
    }
    commit(List.of(), Long.MAX_VALUE); // moves the last delta into the base
    Set<String> manifestsOfA = new HashSet<>();
    for (ManifestFileMeta meta : base) {
      if (meta.partitionStats().maxValues().equals(partition("a"))) {
        assertThat(meta.fileSize()).isGreaterThanOrEqualTo(TARGET);
        manifestsOfA.add(meta.fileName());
      }
    }
    assertThat(manifestsOfA).isNotEmpty();

    // delete some files of b, enough for a full compaction
    List<ManifestEntry> deletes = new ArrayList<>();
    for (ManifestEntry entry : live.values()) {
      if (entry.partition().equals(partition("b")) && deletes.size() < 1500) {
        deletes.add(entry.asDelete());
      }
    }
    commit(deletes, 1);
    ManifestMerger merger = commit(List.of(), 1);
    assertThat(merger.fullCompacted()).isTrue();
    Set<String> kept = new HashSet<>();
    base.forEach(m -> kept.add(m.fileName()));
    assertThat(kept).containsAll(manifestsOfA);
    assertThat(merger.newFiles()).doesNotContainAnyElementsOf(manifestsOfA).isNotEmpty();
    assertThat(base).allMatch(m -> m.numDeletedFiles() == 0);
    assertThat(listedLiveFiles()).isEqualTo(new TreeSet<>(live.keySet()));
  }
}

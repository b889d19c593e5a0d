package io.basalt.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupt or missing metadata of the latest snapshot fails its reads with a message naming the
 * file, the snapshot and the table; older snapshots stay readable by time travel.
 */
class CorruptMetadataTest {
  @TempDir Path dir;

  private FileStoreTable table;
  private TreeMap<Long, String> rowsOf2;
  private Snapshot third;

  @BeforeEach
  void threeCommits() {
    table = TestTables.create(dir, true, List.of(), Map.of("bucket", "1", "write-only", "true"));
    TestTables.upsert(table, Map.of(1L, "a", 2L, "b"));
    TestTables.upsert(table, Map.of(2L, "B", 3L, "c"));
    rowsOf2 = TestTables.readAll(table);
    TestTables.upsert(table, Map.of(3L, "C", 4L, "d"));
    third = table.snapshotManager().snapshot(3);
  }

  private Path local(org.apache.hadoop.fs.Path path) {
    return Path.of(path.toUri().getPath());
  }

  private Path manifest(String name) {
    return local(table.paths().manifestFile(name));
  }

  private String deltaManifestOfThird() {
    List<ManifestFileMeta> metas =
        table.manifestFiles().readManifestList(third.deltaManifestList());
    assertThat(metas).hasSize(1);
    return metas.get(0).fileName();
  }

  private void olderSnapshotStillReads() {
    assertThat(TestTables.readAll(table, table.newScan().withSnapshot(2))).isEqualTo(rowsOf2);
  }

  @Test
  void aTruncatedSnapshotFileNamesTheFile() throws IOException {
    Path file = local(table.paths().snapshotFile(3));
    String json = Files.readString(file);
    Files.writeString(file, json.substring(0, json.length() / 2));
    assertThatThrownBy(() -> table.snapshotManager().snapshot(3))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Snapshot file " + table.paths().snapshotFile(3) + " is corrupt")
        .hasMessageContaining("VERSION AS OF");
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("snapshot-3 is corrupt");
    olderSnapshotStillReads();
  }

  @Test
  void aMissingManifestNamesTheFileAndTheSnapshot() throws IOException {
    String name = deltaManifestOfThird();
    Files.delete(manifest(name));
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Manifest file " + table.paths().manifestFile(name))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("snapshot 3 of table db.t")
        .hasMessageContaining("VERSION AS OF");
    olderSnapshotStillReads();
  }

  @Test
  void aMissingManifestListNamesTheFileAndTheSnapshot() throws IOException {
    Files.delete(manifest(third.deltaManifestList()));
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Manifest list " + table.paths().manifestFile(third.deltaManifestList()))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("snapshot 3 of table db.t");
    olderSnapshotStillReads();
  }

  @Test
  void aManifestWithAnotherAvroSchemaNamesTheFileAndTheSnapshot() throws IOException {
    String name = deltaManifestOfThird();
    // a valid Avro file of another schema: the manifest list
    Files.copy(
        manifest(third.deltaManifestList()),
        manifest(name),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("manifest " + name)
        .hasMessageContaining("snapshot 3 of table db.t");
    olderSnapshotStillReads();
  }

  @Test
  void aTruncatedManifestNamesTheFileAndTheSnapshot() throws IOException {
    String name = deltaManifestOfThird();
    Path file = manifest(name);
    byte[] bytes = Files.readAllBytes(file);
    // the header survives, the block and its sync marker are cut: found while iterating
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 5));
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("manifest " + name)
        .hasMessageContaining(
            "(manifest " + table.paths().manifestFile(name) + " of snapshot 3 of table db.t)")
        .hasMessageContaining("VERSION AS OF");
    olderSnapshotStillReads();
  }

  @Test
  void aManifestListThatCannotBeOpenedNamesTheFile() {
    io.basalt.testing.TrackingFileSystem.reset();
    ManifestFiles tracked =
        new ManifestFiles(
            io.basalt.testing.TrackingFileSystem.fileIO(),
            new io.basalt.fs.TablePaths(io.basalt.testing.TrackingFileSystem.path(dir)),
            new org.apache.spark.sql.types.StructType(),
            8 << 20);
    io.basalt.testing.TrackingFileSystem.failOpen("manifest-list-", 1);
    assertThatThrownBy(
            () -> tracked.readManifestList(third.deltaManifestList(), "snapshot 3 of table db.t"))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("Failed to open manifest list tracking:")
        .hasMessageContaining(third.deltaManifestList())
        .hasStackTraceContaining("Injected failure opening");
    io.basalt.testing.TrackingFileSystem.reset();
  }

  @Test
  void aDataFileThatIsNotParquetNamesTheFileAndTheSnapshot() throws IOException {
    String added = addedByThird();
    Path file = dir.resolve("bucket-0").resolve(added);
    Files.writeString(file, "not a parquet file");
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Failed to open data file file:" + file + " of snapshot 3 of table db.t");
    olderSnapshotStillReads();
  }

  private String addedByThird() {
    String added = null;
    try (CloseableIterator<ManifestEntry> it =
        table.manifestFiles().readManifest(deltaManifestOfThird())) {
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        if (entry.kind() == FileKind.ADD) {
          added = entry.file().fileName();
        }
      }
    }
    assertThat(added).isNotNull();
    return added;
  }

  @Test
  void aMissingDataFileNamesTheFileAndTheSnapshot() throws IOException {
    ManifestFiles manifests = table.manifestFiles();
    String added = null;
    try (CloseableIterator<ManifestEntry> it = manifests.readManifest(deltaManifestOfThird())) {
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        if (entry.kind() == FileKind.ADD) {
          added = entry.file().fileName();
        }
      }
    }
    assertThat(added).isNotNull();
    Path bucketDir = dir.resolve("bucket-0");
    Files.delete(bucketDir.resolve(added));
    assertThatThrownBy(() -> TestTables.readAll(table))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Data file file:" + bucketDir.resolve(added))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("snapshot 3 of table db.t");
    olderSnapshotStillReads();
  }
}

package io.basalt.index;

import static io.basalt.index.IndexManifestCodecTest.dvEntry;
import static io.basalt.index.IndexManifestCodecTest.hashEntry;
import static io.basalt.index.IndexManifestCodecTest.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.avro.RowWriter;
import io.basalt.data.BinaryRow;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.FileKind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexManifestsTest {
  private static final BinaryRow P0 = partition("2024-01-01");
  private static final BinaryRow P1 = partition("2024-01-02");

  @TempDir java.nio.file.Path root;

  private TablePaths paths;
  private IndexManifests manifests;

  @BeforeEach
  void setUp() {
    paths = new TablePaths(new Path(root.toUri()));
    manifests = new IndexManifests(FileIO.local(), paths);
  }

  private static IndexManifestEntry delete(IndexManifestEntry entry) {
    return entry.withKind(FileKind.DELETE);
  }

  @Test
  void noIndexManifestIsAnEmptyState() {
    assertThat(manifests.read(null)).isEmpty();
  }

  @Test
  void writesTheCompleteStateToANewFileInManifestDir() {
    List<IndexManifestEntry> first =
        List.of(dvEntry(P0, 0, "index-a-0"), hashEntry(P0, 0, "index-h-0"));

    String name1 = manifests.writeCompleteState(List.of(), first);
    String name2 =
        manifests.writeCompleteState(manifests.read(name1), List.of(dvEntry(P1, 1, "index-a-1")));

    assertThat(name1).matches("index-manifest-[0-9a-f-]{36}-0");
    assertThat(name2).isEqualTo(name1.substring(0, name1.length() - 1) + "1");
    assertThat(Files.exists(root.resolve("manifest").resolve(name1))).isTrue();
    assertThat(manifests.read(name1)).isEqualTo(first);
    assertThat(manifests.read(name2))
        .containsExactly(first.get(0), first.get(1), dvEntry(P1, 1, "index-a-1"));
  }

  @Test
  void bucketedTablesKeepOneEntryPerPartitionBucketAndIndexType() {
    IndexManifestEntry dvP0B0 = dvEntry(P0, 0, "index-a-0");
    IndexManifestEntry dvP0B1 = dvEntry(P0, 1, "index-a-1");
    IndexManifestEntry hashP0B0 = hashEntry(P0, 0, "index-h-0");
    IndexManifestEntry dvP1B0 = dvEntry(P1, 0, "index-a-2");
    List<IndexManifestEntry> previous = List.of(dvP0B0, dvP0B1, hashP0B0, dvP1B0);
    IndexManifestEntry newDvP0B0 = dvEntry(P0, 0, "index-b-0");

    List<IndexManifestEntry> state =
        IndexManifests.applyChanges(
            previous, List.of(newDvP0B0, delete(dvP0B1), delete(hashEntry(P1, 5, "x"))), false);

    assertThat(state).containsExactly(newDvP0B0, hashP0B0, dvP1B0);
    assertThat(IndexManifests.filesNoLongerReferenced(previous, state))
        .containsExactly(dvP0B0.indexFile(), dvP0B1.indexFile());
  }

  @Test
  void deletesApplyBeforeAddsWhateverTheirOrder() {
    IndexManifestEntry old = dvEntry(P0, 0, "index-a-0");
    IndexManifestEntry replacement = dvEntry(P0, 0, "index-b-0");

    assertThat(IndexManifests.applyChanges(List.of(old), List.of(replacement, delete(old)), false))
        .containsExactly(replacement);
    assertThat(IndexManifests.applyChanges(List.of(old), List.of(delete(old), replacement), false))
        .containsExactly(replacement);
  }

  @Test
  void bucketUnawareTablesKeyDeletionVectorFilesByName() {
    IndexManifestEntry a = dvEntry(P0, 0, "index-a-0");
    IndexManifestEntry b = dvEntry(P0, 0, "index-a-1");
    IndexManifestEntry c = dvEntry(P0, 0, "index-a-2");

    List<IndexManifestEntry> state =
        IndexManifests.applyChanges(List.of(a, b), List.of(c, delete(a)), true);

    assertThat(state).containsExactly(b, c);
    assertThat(IndexManifests.applyChanges(List.of(a, b), List.of(c), false)).containsExactly(c);

    IndexManifests unaware = new IndexManifests(FileIO.local(), paths, true);
    assertThat(unaware.read(unaware.writeCompleteState(List.of(a, b), List.of(c))))
        .containsExactly(a, b, c);
  }

  @Test
  void previousStateWithADeleteIsRejected() {
    IndexManifestEntry deleted = delete(dvEntry(P0, 0, "index-a-0"));

    assertThatThrownBy(() -> IndexManifests.applyChanges(List.of(deleted), List.of(), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid DELETE entry for index file index-a-0 in the previous index manifest state: it"
                + " must list only ADD entries");
  }

  @Test
  void storedManifestWithADeleteIsRejectedNamingTheFile() throws IOException {
    Path path = paths.manifestFile("index-manifest-bad-0");
    OutputStream out = FileIO.local().create(path, false);
    try (RowWriter<IndexManifestEntry> writer = IndexManifestCodec.writer(out, "x")) {
      writer.write(delete(hashEntry(P0, 0, "index-h-0")));
    }

    assertThatThrownBy(() -> manifests.read("index-manifest-bad-0"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest "
                + path
                + ": it holds a DELETE entry for index file index-h-0, but an index manifest lists"
                + " a complete state of ADD entries");
  }

  @Test
  void corruptManifestFailsNamingTheFile() throws IOException {
    String name = manifests.writeCompleteState(List.of(), List.of(dvEntry(P0, 0, "index-a-0")));
    java.nio.file.Path file = root.resolve("manifest").resolve(name);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 4));

    assertThatThrownBy(() -> manifests.read(name))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest "
                + paths.manifestFile(name)
                + ": the file is truncated (its last block is incomplete)");
  }

  @Test
  void missingManifestIsAnIoError() {
    assertThatThrownBy(() -> manifests.read("index-manifest-gone-0"))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessage("Failed to open index manifest " + paths.manifestFile("index-manifest-gone-0"));
  }

  @Test
  void entriesAndFileMetasAreSerializableValues() throws Exception {
    IndexManifestEntry entry = dvEntry(P0, 3, "index-a-0");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(entry);
    }
    Object copy;
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      copy = in.readObject();
    }

    assertThat(copy).isEqualTo(entry);
    assertThat(((IndexManifestEntry) copy).indexFile().dvRanges().keySet())
        .containsExactly("data-z.parquet", "data-a.parquet");
    assertThatThrownBy(() -> entry.indexFile().dvRanges().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void rangesMustBeKeyedByTheirDataFile() {
    DeletionVectorMeta range = new DeletionVectorMeta("data-a", 1, 22, 1L);

    assertThatThrownBy(
            () -> IndexFileMeta.deletionVectors("index-a-0", 31, java.util.Map.of("data-b", range)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Deletion vector range of data-a is keyed by data-b in index file index-a-0");
    assertThatThrownBy(() -> new DeletionVectorMeta("data-a", 1, 0, 1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid length 0 of the deletion vector of data-a");
  }
}

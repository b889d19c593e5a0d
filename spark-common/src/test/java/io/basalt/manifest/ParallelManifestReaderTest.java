package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParallelManifestReaderTest {
  private static final String CONTEXT = "snapshot 7 of table db.t";

  @TempDir Path dir;
  private ManifestFiles files;

  /** Manifest names in the order a snapshot lists them. */
  private final List<String> manifests = new ArrayList<>();

  /** Every entry's file name, in manifest order: what a serial read yields. */
  private final List<String> expected = new ArrayList<>();

  @BeforeEach
  void writeManifests() {
    files =
        new ManifestFiles(
            FileIO.local(),
            new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri())),
            new StructType().add("dt", DataTypes.StringType),
            8L << 20);
    for (int m = 0; m < 12; m++) {
      try (RollingManifestWriter writer = files.newManifestWriter(0)) {
        // sizes differ a lot, so manifests finish decoding out of order
        int entries = m % 3 == 0 ? 2000 : 1 + m;
        for (int i = 0; i < entries; i++) {
          String name = "data-" + m + "-" + i + ".parquet";
          expected.add(name);
          FileKind kind = i % 5 == 4 ? FileKind.DELETE : FileKind.ADD;
          writer.write(
              new ManifestEntry(
                  kind,
                  ManifestEntryCodecTest.partition("2026-12-01"),
                  i % 3,
                  3,
                  ManifestEntryCodecTest.fileWithNulls(name)));
        }
        writer.result().forEach(meta -> manifests.add(meta.fileName()));
      }
    }
    assertThat(manifests).hasSize(12);
  }

  private List<String> read(ParallelManifestReader reader) {
    List<String> names = new ArrayList<>();
    reader.read(manifests, entry -> names.add(entry.file().fileName()));
    return names;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 16})
  void entriesArriveInManifestOrderAtAnyParallelism(int parallelism) {
    ParallelManifestReader reader = new ParallelManifestReader(files, CONTEXT, parallelism, null);
    assertThat(read(reader)).isEqualTo(expected);
    assertThat(reader.fromStorage()).isEqualTo(12);
    assertThat(reader.fromCache()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aSecondReadTakesEveryManifestFromTheCache(int parallelism) {
    ManifestCache cache = new ManifestCache(64L << 20);
    ParallelManifestReader cold = new ParallelManifestReader(files, CONTEXT, parallelism, cache);
    assertThat(read(cold)).isEqualTo(expected);
    assertThat(cold.fromStorage()).isEqualTo(12);
    assertThat(cache.size()).isEqualTo(12);

    ParallelManifestReader warm = new ParallelManifestReader(files, CONTEXT, parallelism, cache);
    assertThat(read(warm)).isEqualTo(expected);
    assertThat(warm.fromStorage()).isZero();
    assertThat(warm.fromCache()).isEqualTo(12);
  }

  @Test
  void cachedManifestsAreNotHandedToWorkers() {
    ManifestCache cache = new ManifestCache(64L << 20);
    ParallelManifestReader cold = new ParallelManifestReader(files, CONTEXT, 4, cache);
    cold.read(manifests.subList(0, 5), entry -> {});
    assertThat(cold.onWorkers()).isEqualTo(5);

    // the five cached manifests stay on this thread, the seven others go to workers
    ParallelManifestReader mixed = new ParallelManifestReader(files, CONTEXT, 4, cache);
    assertThat(read(mixed)).isEqualTo(expected);
    assertThat(mixed.onWorkers()).isEqualTo(7);
    assertThat(mixed.fromCache()).isEqualTo(5);
    assertThat(mixed.fromStorage()).isEqualTo(7);

    ParallelManifestReader warm = new ParallelManifestReader(files, CONTEXT, 4, cache);
    assertThat(read(warm)).isEqualTo(expected);
    assertThat(warm.onWorkers()).isZero();
  }

  @Test
  void aCacheTooSmallForAManifestStillReadsIt() {
    ManifestCache tiny = new ManifestCache(1000);
    for (int round = 0; round < 2; round++) {
      ParallelManifestReader reader = new ParallelManifestReader(files, CONTEXT, 4, tiny);
      assertThat(read(reader)).isEqualTo(expected);
      assertThat(reader.fromStorage()).isEqualTo(12);
    }
    assertThat(tiny.bytes()).isLessThanOrEqualTo(1000);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aCorruptManifestFailsNamingItAndTheSnapshot(int parallelism) throws Exception {
    String bad = manifests.get(5);
    Files.write(dir.resolve("manifest").resolve(bad), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    ParallelManifestReader reader = new ParallelManifestReader(files, CONTEXT, parallelism, null);
    assertThatThrownBy(() -> read(reader))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("manifest " + files.paths().manifestFile(bad))
        .hasMessageContaining(CONTEXT);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aMissingManifestFailsNamingItAndTheFix(int parallelism) throws Exception {
    String gone = manifests.get(11);
    Files.delete(dir.resolve("manifest").resolve(gone));
    ParallelManifestReader reader =
        new ParallelManifestReader(files, CONTEXT, parallelism, new ManifestCache(1 << 20));
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(() -> reader.read(manifests, e -> seen.add(e.file().fileName())))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Manifest file " + files.paths().manifestFile(gone) + " of " + CONTEXT)
        .hasMessageContaining("does not exist")
        .hasMessageContaining("VERSION AS OF");
    // the manifests before it were handed over, in order, and nothing after it
    assertThat(seen).isEqualTo(expected.subList(0, seen.size()));
    assertThat(seen.get(seen.size() - 1)).startsWith("data-10-");
  }

  @Test
  void aFailureInTheCallersFoldStopsTheReadsInFlight() {
    ParallelManifestReader reader = new ParallelManifestReader(files, CONTEXT, 4, null);
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(
            () ->
                reader.read(
                    manifests,
                    e -> {
                      if (e.file().fileName().startsWith("data-2-")) {
                        throw new BasaltException("fold failed at " + e.file().fileName());
                      }
                      seen.add(e.file().fileName());
                    }))
        .hasMessage("fold failed at data-2-0.parquet");
    assertThat(seen).isEqualTo(expected.subList(0, seen.size()));
    assertThat(reader.fromStorage()).isEqualTo(3);
  }

  @Test
  void parallelismBelowOneIsRefused() {
    assertThatThrownBy(() -> new ParallelManifestReader(files, CONTEXT, 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Manifest read parallelism must be >= 1, not 0");
  }
}

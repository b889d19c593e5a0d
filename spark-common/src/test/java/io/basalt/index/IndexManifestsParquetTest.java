package io.basalt.index;

import static io.basalt.index.IndexManifestCodecTest.dvEntry;
import static io.basalt.index.IndexManifestCodecTest.hashEntry;
import static io.basalt.index.IndexManifestCodecTest.partition;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.format.ManifestFormat;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Index manifests in Parquet ({@code manifest.format} = parquet), and read in either format. */
class IndexManifestsParquetTest {
  @TempDir java.nio.file.Path root;

  @Test
  void deletionVectorAndHashEntriesRoundTripAsParquetAndAvroStillReads() throws IOException {
    TablePaths paths = new TablePaths(new Path(root.toUri()));
    IndexManifests parquet =
        new IndexManifests(FileIO.local(), paths, false, ManifestFormat.PARQUET, "zstd");
    IndexManifests avro = new IndexManifests(FileIO.local(), paths);
    List<IndexManifestEntry> state =
        List.of(
            dvEntry(partition("2026-12-01"), 0, "index-a-0"),
            hashEntry(partition("2026-12-02"), 3, "index-h-0"));

    String name = parquet.write(state);
    byte[] head = Arrays.copyOf(Files.readAllBytes(root.resolve("manifest").resolve(name)), 4);
    assertThat(head).isEqualTo("PAR1".getBytes());
    assertThat(parquet.read(name)).isEqualTo(state);
    assertThat(avro.read(name)).isEqualTo(state);
    assertThat(parquet.read(avro.write(state))).isEqualTo(state);
  }
}

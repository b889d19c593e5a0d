package io.basalt.index;

import static io.basalt.index.IndexManifestCodecTest.dvEntry;
import static io.basalt.index.IndexManifestCodecTest.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.TablePaths;
import io.basalt.testing.TrackingFileSystem;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An index manifest whose write fails leaves no open stream and no file. */
class IndexManifestsLeakTest {
  @TempDir Path dir;

  @BeforeEach
  void reset() {
    TrackingFileSystem.reset();
  }

  @Test
  void anIndexManifestThatFailsToWriteIsClosedAndDeleted() throws Exception {
    IndexManifests manifests =
        new IndexManifests(
            TrackingFileSystem.fileIO(), new TablePaths(TrackingFileSystem.path(dir)));
    // the header gets through; the block written at close fails
    TrackingFileSystem.failWrites(IndexManifests.PREFIX, 1);
    assertThatThrownBy(
            () ->
                manifests.writeCompleteState(
                    List.of(), List.of(dvEntry(partition("2024-01-01"), 0, "index-a-0"))))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("index manifest")
        .hasStackTraceContaining("Injected failure writing");
    assertThat(TrackingFileSystem.openStreams()).isEmpty();
    try (var files = Files.list(dir.resolve("manifest"))) {
      assertThat(files.filter(f -> !f.getFileName().toString().startsWith("."))).isEmpty();
    }
  }
}

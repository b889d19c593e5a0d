package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.testing.UnsizedFileSystem;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Manifests roll by the bytes counted on their own output stream: a file system that cannot size a
 * file still being written (S3A: absent, HDFS: lagging) neither fails the commit nor stops the
 * rolling.
 */
class RollingManifestWriterTest {
  private static final long TARGET = 16 << 10;
  private static final int ENTRIES = 3000;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(UnsizedFileSystem.Mode.class)
  void rollsAtTheTargetSizeWhenTheFileSystemCannotSizeAnOpenFile(UnsizedFileSystem.Mode mode)
      throws Exception {
    FileIO fileIO = UnsizedFileSystem.fileIO(mode);
    TablePaths paths = new TablePaths(UnsizedFileSystem.path(dir));
    ManifestFiles files =
        new ManifestFiles(fileIO, paths, new StructType().add("dt", DataTypes.StringType), TARGET);
    List<String> written = new ArrayList<>();
    List<ManifestFileMeta> metas;
    try (RollingManifestWriter writer = files.newManifestWriter(0)) {
      for (int i = 0; i < ENTRIES; i++) {
        String name = "data-" + UUID.randomUUID() + "-" + i + ".parquet";
        written.add(name);
        writer.write(
            new ManifestEntry(
                FileKind.ADD,
                ManifestEntryCodecTest.partition("2026-12-0" + (i % 9 + 1)),
                i % 4,
                4,
                ManifestEntryCodecTest.fileWithNulls(name)));
      }
      metas = writer.result();
    }

    assertThat(metas).hasSizeGreaterThan(2);
    List<String> read = new ArrayList<>();
    for (int i = 0; i < metas.size(); i++) {
      ManifestFileMeta meta = metas.get(i);
      Path local = dir.resolve("manifest").resolve(meta.fileName());
      // the recorded size is the file's, counted while writing
      assertThat(meta.fileSize()).isEqualTo(Files.size(local));
      if (i < metas.size() - 1) {
        // rolled once the target was passed, at most one Avro block (64 KB uncompressed) later
        assertThat(meta.fileSize()).isGreaterThanOrEqualTo(TARGET).isLessThan(TARGET + (64 << 10));
      }
      try (CloseableIterator<ManifestEntry> entries = files.readManifest(meta.fileName())) {
        entries.forEachRemaining(e -> read.add(e.file().fileName()));
      }
    }
    assertThat(read).isEqualTo(written);
    assertThat(metas.stream().mapToLong(ManifestFileMeta::numAddedFiles).sum()).isEqualTo(ENTRIES);

    ManifestFiles.WrittenList list = files.writeManifestList(metas);
    assertThat(list.fileSize())
        .isEqualTo(Files.size(dir.resolve("manifest").resolve(list.fileName())));
    assertThat(files.readManifestList(list.fileName()))
        .extracting(ManifestFileMeta::fileName, ManifestFileMeta::fileSize)
        .isEqualTo(
            metas.stream()
                .map(m -> org.assertj.core.groups.Tuple.tuple(m.fileName(), m.fileSize()))
                .toList());
  }
}

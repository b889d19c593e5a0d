package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.format.ManifestFormat;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.options.Options;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Manifests and manifest lists written and read as Parquet ({@code manifest.format}). */
class ParquetManifestsTest {
  private static final StructType PARTITION = new StructType().add("dt", DataTypes.StringType);

  @TempDir java.nio.file.Path root;
  private TablePaths paths;

  @BeforeEach
  void setUp() {
    paths = new TablePaths(new Path(root.toUri()));
  }

  private ManifestFiles files(ManifestFormat format) {
    return new ManifestFiles(FileIO.local(), paths, PARTITION, 8 << 20, format, "zstd");
  }

  private static List<ManifestEntry> entries() {
    return List.of(
        new ManifestEntry(
            FileKind.ADD,
            ManifestEntryCodecTest.partition("2026-12-01"),
            3,
            16,
            ManifestEntryCodecTest.fileWithNulls("data-a-0.parquet")),
        new ManifestEntry(
            FileKind.DELETE,
            ManifestEntryCodecTest.partition("2026-12-02"),
            0,
            16,
            ManifestEntryCodecTest.fileWithEverything("data-b-1.parquet")));
  }

  private List<ManifestEntry> read(ManifestFiles files, String name) {
    List<ManifestEntry> read = new ArrayList<>();
    try (CloseableIterator<ManifestEntry> it = files.readManifest(name, "snapshot 1 of db.t")) {
      it.forEachRemaining(read::add);
    }
    return read;
  }

  private byte[] head(String name) throws IOException {
    byte[] bytes = Files.readAllBytes(root.resolve("manifest").resolve(name));
    return new byte[] {bytes[0], bytes[1], bytes[2], bytes[3]};
  }

  @Test
  void manifestsAndListsRoundTripEveryFieldAsParquet() throws IOException {
    ManifestFiles files = files(ManifestFormat.PARQUET);
    List<ManifestFileMeta> metas;
    try (RollingManifestWriter writer = files.newManifestWriter(7)) {
      entries().forEach(writer::write);
      metas = writer.result();
    }
    assertThat(metas).hasSize(1);
    String manifest = metas.get(0).fileName();
    assertThat(head(manifest)).isEqualTo("PAR1".getBytes());
    assertThat(metas.get(0).fileSize())
        .isEqualTo(Files.size(root.resolve("manifest").resolve(manifest)));
    assertThat(read(files, manifest))
        .usingRecursiveFieldByFieldElementComparator()
        .isEqualTo(entries());

    List<ManifestFileMeta> list =
        List.of(
            metas.get(0),
            ManifestFileMetaCodecTest.withNulls(),
            ManifestFileMetaCodecTest.withEverything());
    ManifestFiles.WrittenList written = files.writeManifestList(list);
    assertThat(head(written.fileName())).isEqualTo("PAR1".getBytes());
    assertThat(written.fileSize())
        .isEqualTo(Files.size(root.resolve("manifest").resolve(written.fileName())));
    assertThat(files.readManifestList(written.fileName())).isEqualTo(list);
  }

  @Test
  void eitherFormatIsReadWhateverTheOptionSays() {
    ManifestFiles avro = files(ManifestFormat.AVRO);
    ManifestFiles parquet = files(ManifestFormat.PARQUET);
    String avroName;
    try (RollingManifestWriter writer = avro.newManifestWriter(0)) {
      entries().forEach(writer::write);
      avroName = writer.result().get(0).fileName();
    }
    String parquetName;
    try (RollingManifestWriter writer = parquet.newManifestWriter(0)) {
      entries().forEach(writer::write);
      parquetName = writer.result().get(0).fileName();
    }
    assertThat(read(parquet, avroName))
        .usingRecursiveFieldByFieldElementComparator()
        .isEqualTo(entries());
    assertThat(read(avro, parquetName))
        .usingRecursiveFieldByFieldElementComparator()
        .isEqualTo(entries());
  }

  @Test
  void aRowOfAnotherVersionFailsNamingTheFile() throws IOException {
    MetadataCodec<ManifestEntry> codec = ManifestEntryCodec.CODEC;
    MetadataCodec<ManifestEntry> newer =
        new MetadataCodec<>(
            codec.schema(),
            codec.version(),
            entry -> {
              GenericRecord record = codec.encoder().apply(entry);
              record.put("_VERSION", codec.version() + 1);
              return record;
            },
            codec.decoder(),
            codec.what());
    Path path = paths.manifestFile("manifest-newer-0");
    try (SizedRowWriter<ManifestEntry> writer =
        MetadataFiles.create(
            FileIO.local(), path, ManifestFormat.PARQUET, newer, "manifest-newer-0", "zstd")) {
      entries().forEach(writer::write);
    }
    assertThatThrownBy(() -> read(files(ManifestFormat.AVRO), "manifest-newer-0"))
        .hasMessageContaining(
            "Failed to read manifest manifest-newer-0: written by a newer version, with format"
                + " version 3 (expected 2)");
  }

  @Test
  void aMissingParquetTableManifestNamesTheContextAndTheFix() {
    assertThatThrownBy(() -> read(files(ManifestFormat.PARQUET), "manifest-gone-0"))
        .hasMessageContaining("manifest-gone-0 of snapshot 1 of db.t does not exist")
        .hasMessageContaining("restore the file from a backup");
  }

  @Test
  void theOptionNamesAvroOrParquetAndRefusesOthers() {
    assertThat(ManifestFormat.of(new Options(Map.of(), "db.t"), "db.t"))
        .isEqualTo(ManifestFormat.AVRO);
    assertThat(
            ManifestFormat.of(new Options(Map.of("manifest.format", " Parquet"), "db.t"), "db.t"))
        .isEqualTo(ManifestFormat.PARQUET);
    assertThatThrownBy(
            () -> ManifestFormat.of(new Options(Map.of("manifest.format", "orc"), "db.t"), "db.t"))
        .hasMessage(
            "Table db.t has 'manifest.format' = 'orc'; Basalt reads and writes avro and parquet"
                + " manifests. Fix: set 'manifest.format' to 'avro' or 'parquet' (copy the rows"
                + " with Paimon into such a table, or read this one with Paimon).");
  }
}

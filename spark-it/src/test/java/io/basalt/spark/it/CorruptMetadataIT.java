package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Damaged metadata of the latest snapshot (truncated snapshot JSON, missing manifest, manifest of
 * another Avro schema, missing data file) fails queries with a message naming the file and the
 * snapshot; time travel to an older snapshot still works.
 */
class CorruptMetadataIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS cm");
  }

  /** Three commits: snapshot n holds rows 1..n. */
  private Path threeCommits(String table) {
    sql(
        "CREATE TABLE cm.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
            + " 'write-only' = 'true')",
        table);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO cm.%s VALUES (%d, 'v%d')", table, i, i);
    }
    return tablePath("cm", table);
  }

  private void olderSnapshotStillReads(String table) {
    assertThat(rows("SELECT * FROM cm.%s VERSION AS OF 2", table)).containsExactly("1,v1", "2,v2");
  }

  private static TablePaths paths(Path root) {
    return new TablePaths(new org.apache.hadoop.fs.Path(root.toUri()));
  }

  private static Snapshot third(Path root) {
    return new SnapshotManager(FileIO.local(), paths(root)).snapshot(3);
  }

  private static ManifestFiles manifests(Path root) {
    return new ManifestFiles(FileIO.local(), paths(root), new StructType(), 8 << 20);
  }

  private static String deltaManifestOfThird(Path root) {
    List<ManifestFileMeta> metas =
        manifests(root).readManifestList(third(root).deltaManifestList());
    assertThat(metas).hasSize(1);
    return metas.get(0).fileName();
  }

  @Test
  void truncatedSnapshotFile() throws IOException {
    Path root = threeCommits("truncated");
    Path file = root.resolve("snapshot").resolve("snapshot-3");
    String json = Files.readString(file);
    Files.writeString(file, json.substring(0, json.length() / 2));
    assertThatThrownBy(() -> sql("SELECT * FROM cm.truncated"))
        .hasMessageContaining("snapshot-3 is corrupt")
        .hasMessageContaining("VERSION AS OF");
    olderSnapshotStillReads("truncated");
  }

  @Test
  void missingManifest() throws IOException {
    Path root = threeCommits("missing_manifest");
    String name = deltaManifestOfThird(root);
    Files.delete(root.resolve("manifest").resolve(name));
    assertThatThrownBy(() -> sql("SELECT * FROM cm.missing_manifest"))
        .hasMessageContaining("Manifest file ")
        .hasMessageContaining(name + " of snapshot 3 of table ")
        .hasMessageContaining("does not exist");
    olderSnapshotStillReads("missing_manifest");
  }

  @Test
  void manifestOfAnotherAvroSchema() throws IOException {
    Path root = threeCommits("wrong_schema");
    String name = deltaManifestOfThird(root);
    Path manifestDir = root.resolve("manifest");
    Files.copy(
        manifestDir.resolve(third(root).deltaManifestList()),
        manifestDir.resolve(name),
        StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> sql("SELECT * FROM cm.wrong_schema"))
        .hasMessageContaining("Failed to read manifest " + name)
        .hasMessageContaining("of snapshot 3 of table ");
    olderSnapshotStillReads("wrong_schema");
  }

  @Test
  void missingDataFile() throws IOException {
    Path root = threeCommits("missing_data");
    String added = null;
    try (CloseableIterator<ManifestEntry> it =
        manifests(root).readManifest(deltaManifestOfThird(root))) {
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        if (entry.kind() == FileKind.ADD) {
          added = entry.file().fileName();
        }
      }
    }
    assertThat(added).isNotNull();
    Files.delete(root.resolve("bucket-0").resolve(added));
    assertThatThrownBy(() -> sql("SELECT * FROM cm.missing_data"))
        .hasStackTraceContaining("Data file ")
        .hasStackTraceContaining(added + " of snapshot 3 of table ")
        .hasStackTraceContaining("does not exist");
    olderSnapshotStillReads("missing_data");
  }
}

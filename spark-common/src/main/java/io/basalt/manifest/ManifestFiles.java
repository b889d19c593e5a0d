package io.basalt.manifest;

import io.basalt.BasaltException;
import io.basalt.avro.RowWriter;
import io.basalt.data.BinaryRow;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.utils.CloseableIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;

/**
 * Reads and writes a table's manifests and manifest lists under {@code manifest/}. Writing rolls
 * manifests at a target size; every file name is fresh ({@code manifest-<uuid>-<n>}), so a file is
 * never rewritten.
 */
public final class ManifestFiles {
  private final FileIO fileIO;
  private final TablePaths paths;
  private final StructType partitionType;
  private final long targetFileSize;
  private final String uuid = UUID.randomUUID().toString();
  private final AtomicInteger counter = new AtomicInteger();

  public ManifestFiles(
      FileIO fileIO, TablePaths paths, StructType partitionType, long targetFileSize) {
    this.fileIO = fileIO;
    this.paths = paths;
    this.partitionType = partitionType;
    this.targetFileSize = targetFileSize;
  }

  /** Reads the entries of manifest {@code fileName} lazily. */
  public CloseableIterator<ManifestEntry> readManifest(String fileName) {
    return ManifestEntryCodec.read(open(fileName), fileName);
  }

  /** Reads all rows of manifest list {@code fileName}; lists are small (one row per manifest). */
  public List<ManifestFileMeta> readManifestList(String fileName) {
    List<ManifestFileMeta> metas = new ArrayList<>();
    try (CloseableIterator<ManifestFileMeta> it =
        ManifestFileMetaCodec.read(open(fileName), fileName)) {
      it.forEachRemaining(metas::add);
    }
    return metas;
  }

  private InputStream open(String fileName) {
    Path path = paths.manifestFile(fileName);
    try {
      return fileIO.open(path);
    } catch (FileNotFoundException e) {
      throw new BasaltException("Manifest file " + path + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open manifest file " + path, e);
    }
  }

  /** Starts a manifest writer that rolls at the target size. */
  public RollingManifestWriter newManifestWriter(long schemaId) {
    return new RollingManifestWriter(this, schemaId);
  }

  /** Writes a manifest list; returns its name and size. */
  public WrittenList writeManifestList(List<ManifestFileMeta> metas) {
    String name = "manifest-list-" + uuid + "-" + counter.getAndIncrement();
    Path path = paths.manifestFile(name);
    CountingOutputStream out;
    try {
      out = new CountingOutputStream(fileIO.create(path, false));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write manifest list " + path, e);
    }
    try (RowWriter<ManifestFileMeta> writer = ManifestFileMetaCodec.writer(out, name)) {
      for (ManifestFileMeta meta : metas) {
        writer.write(meta);
      }
    }
    return new WrittenList(name, out.count());
  }

  /** Deletes a manifest or manifest list written by a failed commit attempt. */
  public void delete(String fileName) {
    fileIO.delete(paths.manifestFile(fileName), false);
  }

  String newManifestName() {
    return "manifest-" + uuid + "-" + counter.getAndIncrement();
  }

  FileIO fileIO() {
    return fileIO;
  }

  TablePaths paths() {
    return paths;
  }

  public StructType partitionType() {
    return partitionType;
  }

  long targetFileSize() {
    return targetFileSize;
  }

  /** A written manifest list. */
  public record WrittenList(String fileName, long fileSize) {}

  /** Whether {@code partition} bytes belong to an unpartitioned table. */
  static boolean isEmpty(BinaryRow partition) {
    return partition.arity() == 0;
  }
}

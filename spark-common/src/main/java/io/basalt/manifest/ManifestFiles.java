package io.basalt.manifest;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.format.ManifestFormat;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.utils.CloseableIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;
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
  private final ManifestFormat format;
  private final String compression;
  private final String uuid = UUID.randomUUID().toString();
  private final AtomicInteger counter = new AtomicInteger();

  /** Manifests written as Avro. */
  public ManifestFiles(
      FileIO fileIO, TablePaths paths, StructType partitionType, long targetFileSize) {
    this(fileIO, paths, partitionType, targetFileSize, ManifestFormat.AVRO, "zstd");
  }

  /**
   * @param format the format new manifests and manifest lists are written in; any is read
   * @param compression the codec of Parquet manifests
   */
  public ManifestFiles(
      FileIO fileIO,
      TablePaths paths,
      StructType partitionType,
      long targetFileSize,
      ManifestFormat format,
      String compression) {
    this.fileIO = fileIO;
    this.paths = paths;
    this.partitionType = partitionType;
    this.targetFileSize = targetFileSize;
    this.format = format;
    this.compression = compression;
  }

  /** Reads the entries of manifest {@code fileName} lazily. */
  public CloseableIterator<ManifestEntry> readManifest(String fileName) {
    return readManifest(fileName, null);
  }

  /**
   * Reads the entries of manifest {@code fileName} lazily.
   *
   * @param context what the manifest belongs to, such as {@code "snapshot 3 of table db.t"}, named
   *     in errors with the fix; null when unknown
   * @throws BasaltException naming the file and the context when it is missing or unreadable, also
   *     from the returned iterator
   */
  public CloseableIterator<ManifestEntry> readManifest(String fileName, @Nullable String context) {
    Path path = paths.manifestFile(fileName);
    CloseableIterator<ManifestEntry> entries;
    try {
      entries = open(path, "Manifest file", context, ManifestEntryCodec.CODEC, fileName);
    } catch (BasaltException e) {
      throw withContext(e, "manifest", path, context);
    }
    return context == null ? entries : new ContextIterator<>(entries, "manifest", path, context);
  }

  /** Reads all rows of manifest list {@code fileName}; lists are small (one row per manifest). */
  public List<ManifestFileMeta> readManifestList(String fileName) {
    return readManifestList(fileName, null);
  }

  /**
   * Reads all rows of manifest list {@code fileName}; lists are small (one row per manifest).
   *
   * @param context what the list belongs to, named in errors; null when unknown
   */
  public List<ManifestFileMeta> readManifestList(String fileName, @Nullable String context) {
    Path path = paths.manifestFile(fileName);
    List<ManifestFileMeta> metas = new ArrayList<>();
    try (CloseableIterator<ManifestFileMeta> it =
        open(path, "Manifest list", context, ManifestFileMetaCodec.CODEC, fileName)) {
      it.forEachRemaining(metas::add);
    } catch (BasaltException e) {
      throw withContext(e, "manifest list", path, context);
    }
    return metas;
  }

  /**
   * {@link #readManifestList(String, String)} through {@code cache}: a manifest list is written
   * once and never changed, so a list decoded before is taken from there.
   *
   * @param cache the cache, or null to read from storage
   * @return an immutable list
   */
  public List<ManifestFileMeta> readManifestList(
      String fileName, @Nullable String context, @Nullable ManifestCache cache) {
    if (cache == null) {
      return List.copyOf(readManifestList(fileName, context));
    }
    String key = paths.manifestFile(fileName).toString();
    List<ManifestFileMeta> cached = cache.manifestList(key);
    if (cached != null) {
      return cached;
    }
    List<ManifestFileMeta> metas = readManifestList(fileName, context);
    cache.putManifestList(key, metas);
    return List.copyOf(metas);
  }

  private <T> CloseableIterator<T> open(
      Path path, String what, @Nullable String context, MetadataCodec<T> codec, String name) {
    try {
      return MetadataFiles.read(fileIO, path, codec, name);
    } catch (FileNotFoundException e) {
      throw new MissingFileException(
          path,
          String.format("%s %s%s does not exist.%s", what, path, of(context), fix(context)),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open " + what.toLowerCase() + " " + path, e);
    }
  }

  private static String of(@Nullable String context) {
    return context == null ? "" : " of " + context;
  }

  /** How to get past damaged metadata: restore the file, or read and roll back to an older one. */
  static String fix(@Nullable String context) {
    return context == null
        ? ""
        : " The table's metadata is damaged: restore the file from a backup, or read an older"
            + " snapshot with VERSION AS OF <id> (CALL sys.rollback moves the table back to it).";
  }

  /** A corrupt-file error with the context and the fix added; a missing file already has them. */
  static BasaltException withContext(
      BasaltException e, String what, Path path, @Nullable String context) {
    if (context == null || e instanceof MissingFileException) {
      return e;
    }
    return new BasaltException(
        BasaltErrorClass.BASALT_CORRUPT_METADATA,
        Map.of("path", path.toString()),
        String.format("%s (%s %s%s).%s", e.getMessage(), what, path, of(context), fix(context)),
        e);
  }

  /** A metadata file that does not exist; its message already names the context. */
  private static final class MissingFileException extends BasaltException {
    MissingFileException(Path path, String message, Throwable cause) {
      super(
          BasaltErrorClass.BASALT_CORRUPT_METADATA,
          Map.of("path", path.toString()),
          message,
          cause);
    }
  }

  /** Adds the context to errors of a manifest found only while iterating (a corrupt block). */
  private static final class ContextIterator<T> implements CloseableIterator<T> {
    private final CloseableIterator<T> delegate;
    private final String what;
    private final Path path;
    private final String context;

    ContextIterator(CloseableIterator<T> delegate, String what, Path path, String context) {
      this.delegate = delegate;
      this.what = what;
      this.path = path;
      this.context = context;
    }

    @Override
    public boolean hasNext() {
      try {
        return delegate.hasNext();
      } catch (BasaltException e) {
        throw withContext(e, what, path, context);
      }
    }

    @Override
    public T next() {
      try {
        return delegate.next();
      } catch (BasaltException e) {
        throw withContext(e, what, path, context);
      }
    }

    @Override
    public void close() {
      delegate.close();
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
    SizedRowWriter<ManifestFileMeta> writer = create(path, ManifestFileMetaCodec.CODEC, name);
    try (writer) {
      for (ManifestFileMeta meta : metas) {
        writer.write(meta);
      }
    }
    return new WrittenList(name, writer.size());
  }

  /** Creates metadata file {@code path} in this table's manifest format. */
  <T> SizedRowWriter<T> create(Path path, MetadataCodec<T> codec, String name) {
    try {
      return MetadataFiles.create(fileIO, path, format, codec, name, compression);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write " + codec.what() + " " + path, e);
    }
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

package io.basalt.index;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.format.ManifestFormat;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.MetadataFiles;
import io.basalt.manifest.SizedRowWriter;
import io.basalt.utils.Check;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes a table's index manifests, {@code manifest/index-manifest-<uuid>-<n>}. An index
 * manifest is a complete state: it lists every live index file, all as ADD (format-notes.md
 * sections 4.4 and 9). A commit that changes index files reads the previous state, applies its
 * changes with {@link #applyChanges} and writes the result as a new file; a commit that changes
 * none reuses the previous name. Thread-safe if its {@link FileIO} is.
 */
public final class IndexManifests {
  /** The prefix of every index manifest name. */
  public static final String PREFIX = "index-manifest-";

  private final FileIO fileIO;
  private final TablePaths paths;
  private final boolean bucketUnaware;
  private final ManifestFormat format;
  private final String compression;
  private final String namePrefix = TablePaths.newFilePrefix(PREFIX);
  private final AtomicInteger counter = new AtomicInteger();

  /** Index manifests of a bucketed table (fixed, dynamic or postponed buckets). */
  public IndexManifests(FileIO fileIO, TablePaths paths) {
    this(fileIO, paths, false);
  }

  /**
   * Index manifests of a table.
   *
   * @param bucketUnaware whether the table is a bucket-unaware append table, whose deletion vector
   *     files are keyed by file name rather than by bucket (see {@link #applyChanges})
   */
  public IndexManifests(FileIO fileIO, TablePaths paths, boolean bucketUnaware) {
    this(fileIO, paths, bucketUnaware, ManifestFormat.AVRO, "zstd");
  }

  /**
   * Index manifests of a table, written in {@code format} (any format is read).
   *
   * @param compression the codec of Parquet index manifests
   */
  public IndexManifests(
      FileIO fileIO,
      TablePaths paths,
      boolean bucketUnaware,
      ManifestFormat format,
      String compression) {
    this.fileIO = Check.notNull(fileIO, "fileIO");
    this.paths = Check.notNull(paths, "paths");
    this.bucketUnaware = bucketUnaware;
    this.format = Check.notNull(format, "format");
    this.compression = Check.notNull(compression, "compression");
  }

  /**
   * The entries of index manifest {@code indexManifestName}, in file order.
   *
   * @param indexManifestName a file name in {@code manifest/}; null means a table without index
   *     files, and gives an empty list
   * @return a fresh mutable list of ADD entries
   * @throws BasaltException if the file is corrupt, truncated or holds a DELETE entry; the message
   *     names the file
   * @throws UncheckedIOException if the file cannot be opened
   */
  public List<IndexManifestEntry> read(@Nullable String indexManifestName) {
    List<IndexManifestEntry> entries = new ArrayList<>();
    if (indexManifestName == null) {
      return entries;
    }
    Path path = paths.manifestFile(indexManifestName);
    CloseableIterator<IndexManifestEntry> opened;
    try {
      opened = MetadataFiles.read(fileIO, path, IndexManifestCodec.CODEC, path.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open index manifest " + path, e);
    }
    try (CloseableIterator<IndexManifestEntry> rows = opened) {
      rows.forEachRemaining(entries::add);
    }
    for (IndexManifestEntry entry : entries) {
      if (entry.kind() != FileKind.ADD) {
        throw new BasaltException(
            String.format(
                "Failed to read index manifest %s: it holds a DELETE entry for index file %s, but"
                    + " an index manifest lists a complete state of ADD entries",
                path, entry.indexFile().fileName()));
      }
    }
    return entries;
  }

  /**
   * Applies {@code changes} to {@code previous} (see {@link #applyChanges}) and writes the result
   * as a new index manifest.
   *
   * @return the new file's name in {@code manifest/}
   * @throws UncheckedIOException if writing fails; the partial file is deleted
   */
  public String writeCompleteState(
      List<IndexManifestEntry> previous, List<IndexManifestEntry> changes) {
    return write(applyChanges(previous, changes, bucketUnaware));
  }

  /**
   * Writes {@code state}, which must hold only ADD entries, as a new index manifest.
   *
   * @return the new file's name in {@code manifest/}
   * @throws UncheckedIOException if writing fails; the partial file is deleted
   */
  public String write(List<IndexManifestEntry> state) {
    checkAllAdded(state, "an index manifest state");
    String name = namePrefix + counter.getAndIncrement();
    Path path = paths.manifestFile(name);
    SizedRowWriter<IndexManifestEntry> writer = null;
    try {
      writer =
          MetadataFiles.create(
              fileIO, path, format, IndexManifestCodec.CODEC, path.toString(), compression);
      try (SizedRowWriter<IndexManifestEntry> open = writer) {
        state.forEach(open::write);
      }
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        try {
          writer.abort();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      try {
        fileIO.delete(path, false);
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e instanceof IOException io
          ? new UncheckedIOException("Failed to write index manifest " + path, io)
          : (RuntimeException) e;
    }
    return name;
  }

  /**
   * The state after applying {@code changes} to {@code previous}. Each entry has a key: (partition,
   * bucket, index type), or for deletion vector files of a bucket-unaware table (partition, file
   * name). DELETE changes are applied first and remove the entry of their key, if any; then each
   * ADD change replaces the entry of its key or, when there is none, is appended. Entries keep the
   * order of {@code previous}.
   *
   * @return a fresh list of ADD entries
   * @throws IllegalArgumentException if {@code previous} holds a DELETE entry
   */
  public static List<IndexManifestEntry> applyChanges(
      List<IndexManifestEntry> previous, List<IndexManifestEntry> changes, boolean bucketUnaware) {
    checkAllAdded(previous, "the previous index manifest state");
    Map<Key, IndexManifestEntry> state = new LinkedHashMap<>();
    for (IndexManifestEntry entry : previous) {
      state.put(Key.of(entry, bucketUnaware), entry);
    }
    for (IndexManifestEntry change : changes) {
      if (change.kind() == FileKind.DELETE) {
        state.remove(Key.of(change, bucketUnaware));
      }
    }
    for (IndexManifestEntry change : changes) {
      if (change.kind() == FileKind.ADD) {
        state.put(Key.of(change, bucketUnaware), change);
      }
    }
    return new ArrayList<>(state.values());
  }

  /**
   * The index files {@code previous} lists and {@code current} does not, each once, in the order of
   * {@code previous}. Other snapshots may still refer to them: delete them only when no retained
   * snapshot does.
   */
  public static List<IndexFileMeta> filesNoLongerReferenced(
      List<IndexManifestEntry> previous, List<IndexManifestEntry> current) {
    Set<String> live = new HashSet<>();
    current.forEach(entry -> live.add(entry.indexFile().fileName()));
    Map<String, IndexFileMeta> dropped = new LinkedHashMap<>();
    for (IndexManifestEntry entry : previous) {
      IndexFileMeta file = entry.indexFile();
      if (!live.contains(file.fileName())) {
        dropped.putIfAbsent(file.fileName(), file);
      }
    }
    return new ArrayList<>(dropped.values());
  }

  private static void checkAllAdded(List<IndexManifestEntry> entries, String what) {
    for (IndexManifestEntry entry : entries) {
      Check.argument(
          entry.kind() == FileKind.ADD,
          "Invalid DELETE entry for index file %s in %s: it must list only ADD entries",
          entry.indexFile().fileName(),
          what);
    }
  }

  /** What identifies an entry in the state; {@code fileName} is set only when keyed by name. */
  private record Key(BinaryRow partition, int bucket, String indexType, @Nullable String fileName) {
    static Key of(IndexManifestEntry entry, boolean bucketUnaware) {
      IndexFileMeta file = entry.indexFile();
      if (bucketUnaware && IndexFileMeta.DELETION_VECTORS.equals(file.indexType())) {
        return new Key(entry.partition(), 0, file.indexType(), file.fileName());
      }
      return new Key(entry.partition(), entry.bucket(), file.indexType(), null);
    }
  }
}

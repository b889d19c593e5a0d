package io.basalt.operation.commit;

import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.RollingManifestWriter;
import io.basalt.operation.scan.LiveFiles;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the manifests a snapshot references few and the metadata a commit writes proportional to
 * its change, as Paimon does:
 *
 * <ul>
 *   <li>Minor merge: consecutive manifests are grouped until a group reaches the target size; a
 *       group of several is folded into full-size manifests (an ADD and a DELETE of one file
 *       cancel), a lone full-size manifest is kept as it is. The trailing group is folded once it
 *       holds {@code manifest.merge-min-count} manifests. Full-size manifests are never rewritten
 *       just because there are many of them.
 *   <li>Full compaction: the leading full-size manifests without DELETE entries are the base,
 *       everything after them the delta. Once the delta reaches {@code
 *       manifest.full-compaction-threshold-size}, the delta and the base manifests that may hold a
 *       file the delta deletes (by partition and bucket range) are folded completely, which drops
 *       every cancelled pair; the other base manifests are kept.
 * </ul>
 *
 * Files are never rewritten in place; new manifests are listed in {@link #newFiles()} for cleanup.
 */
final class ManifestMerger {
  /** Paimon's default for {@code manifest.full-compaction-threshold-size}. */
  static final long DEFAULT_FULL_COMPACTION_THRESHOLD = 16L << 20;

  private final ManifestFiles manifests;
  private final int minCount;
  private final long targetFileSize;
  private final long fullCompactionThreshold;
  private final List<String> newFiles = new ArrayList<>();
  private long bytesWritten;
  private boolean fullCompacted;

  ManifestMerger(ManifestFiles manifests, int minCount, long targetFileSize) {
    this(manifests, minCount, targetFileSize, DEFAULT_FULL_COMPACTION_THRESHOLD);
  }

  ManifestMerger(
      ManifestFiles manifests, int minCount, long targetFileSize, long fullCompactionThreshold) {
    this.manifests = manifests;
    this.minCount = minCount;
    this.targetFileSize = targetFileSize;
    this.fullCompactionThreshold = fullCompactionThreshold;
  }

  /** The manifests to reference instead of {@code metas} (possibly {@code metas} itself). */
  List<ManifestFileMeta> merge(List<ManifestFileMeta> metas, long schemaId, String context) {
    return tryFullCompaction(metas, schemaId, context)
        .orElseGet(() -> minorMerge(metas, schemaId, context));
  }

  private List<ManifestFileMeta> minorMerge(
      List<ManifestFileMeta> metas, long schemaId, String context) {
    List<ManifestFileMeta> result = new ArrayList<>();
    List<ManifestFileMeta> group = new ArrayList<>();
    long groupSize = 0;
    for (ManifestFileMeta meta : metas) {
      group.add(meta);
      groupSize += meta.fileSize();
      if (groupSize >= targetFileSize) {
        result.addAll(group.size() == 1 ? group : fold(group, schemaId, context, false));
        group.clear();
        groupSize = 0;
      }
    }
    if (group.size() >= Math.max(2, minCount)) {
      result.addAll(fold(group, schemaId, context, false));
    } else {
      result.addAll(group);
    }
    return result;
  }

  private Optional<List<ManifestFileMeta>> tryFullCompaction(
      List<ManifestFileMeta> metas, long schemaId, String context) {
    int baseEnd = 0;
    while (baseEnd < metas.size() && isBase(metas.get(baseEnd))) {
      baseEnd++;
    }
    List<ManifestFileMeta> delta = metas.subList(baseEnd, metas.size());
    long deltaSize = 0;
    for (ManifestFileMeta meta : delta) {
      deltaSize += meta.fileSize();
    }
    if (deltaSize < fullCompactionThreshold || delta.size() < 2) {
      return Optional.empty();
    }
    DeletedFiles deleted = deletedFiles(delta, context);
    List<ManifestFileMeta> kept = new ArrayList<>();
    List<ManifestFileMeta> folded = new ArrayList<>();
    for (ManifestFileMeta meta : metas.subList(0, baseEnd)) {
      (deleted.mayBeIn(meta) ? folded : kept).add(meta);
    }
    folded.addAll(delta);
    fullCompacted = true;
    // every manifest that may add a file the delta deletes is folded: no DELETE needs keeping
    List<ManifestFileMeta> result = new ArrayList<>(kept);
    result.addAll(fold(folded, schemaId, context, true));
    return Optional.of(result);
  }

  private boolean isBase(ManifestFileMeta meta) {
    return meta.numDeletedFiles() == 0 && meta.fileSize() >= targetFileSize;
  }

  /** The partitions and buckets whose files {@code delta} deletes. */
  private DeletedFiles deletedFiles(List<ManifestFileMeta> delta, String context) {
    DeletedFiles deleted = new DeletedFiles(manifests.partitionType());
    for (ManifestFileMeta meta : delta) {
      if (meta.numDeletedFiles() == 0) {
        continue;
      }
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (entry.kind() == FileKind.DELETE) {
            deleted.add(entry);
          }
        }
      }
    }
    return deleted;
  }

  private List<ManifestFileMeta> fold(
      List<ManifestFileMeta> metas, long schemaId, String context, boolean complete) {
    LiveFiles live = new LiveFiles(context);
    for (ManifestFileMeta meta : metas) {
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        it.forEachRemaining(live::apply);
      }
    }
    RollingManifestWriter writer = manifests.newManifestWriter(schemaId);
    try {
      for (ManifestEntry entry : live.entries()) {
        writer.write(entry);
      }
      if (!complete) {
        // their ADDs live in manifests that were not folded: the DELETEs must survive
        for (ManifestEntry delete : live.unmatchedDeleteEntries()) {
          writer.write(delete);
        }
      }
      List<ManifestFileMeta> merged = writer.result();
      for (ManifestFileMeta meta : merged) {
        newFiles.add(meta.fileName());
        bytesWritten += meta.fileSize();
      }
      return merged;
    } catch (RuntimeException e) {
      newFiles.addAll(writer.writtenNames());
      throw e;
    }
  }

  /** Manifests this merger wrote, to delete when the commit attempt fails. */
  List<String> newFiles() {
    return newFiles;
  }

  /** Whether the last merge was a full compaction. */
  boolean fullCompacted() {
    return fullCompacted;
  }

  /** Bytes of the manifests this merger wrote. */
  long bytesWritten() {
    return bytesWritten;
  }

  /**
   * Deleted (partition, bucket) pairs, checked against a manifest's partition and bucket ranges.
   */
  private static final class DeletedFiles {
    private final ManifestPartitionRange ranges;
    private final Set<ManifestPartitionRange.Location> locations = new LinkedHashSet<>();

    DeletedFiles(org.apache.spark.sql.types.StructType partitionType) {
      this.ranges = new ManifestPartitionRange(partitionType);
    }

    void add(ManifestEntry entry) {
      locations.add(new ManifestPartitionRange.Location(entry.partition(), entry.bucket()));
    }

    boolean mayBeIn(ManifestFileMeta meta) {
      for (ManifestPartitionRange.Location location : locations) {
        if (ranges.mayContain(meta, location)) {
          return true;
        }
      }
      return false;
    }
  }
}

package io.basalt.operation.commit;

import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.RollingManifestWriter;
import io.basalt.operation.scan.LiveFiles;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the number of manifests a snapshot references bounded. Manifests smaller than half the
 * target size are "small"; once {@code manifest.merge-min-count} of them pile up, they are folded
 * together (ADD/DELETE pairs inside them cancel) and rewritten as few full-size manifests, while
 * full-size manifests stay as they are. A commit thus reads at most about min-count small
 * manifests, not the table's whole metadata. When full-size manifests alone reach the count,
 * everything is folded once, which also drops DELETE entries whose ADD sits in a full-size
 * manifest. Files are never rewritten in place.
 */
final class ManifestMerger {
  private final ManifestFiles manifests;
  private final int minCount;
  private final long smallSize;
  private final List<String> newFiles = new ArrayList<>();

  ManifestMerger(ManifestFiles manifests, int minCount, long targetFileSize) {
    this.manifests = manifests;
    this.minCount = minCount;
    this.smallSize = targetFileSize / 2;
  }

  /** The manifests to reference instead of {@code metas} (possibly {@code metas} itself). */
  List<ManifestFileMeta> merge(List<ManifestFileMeta> metas, long schemaId, String context) {
    if (metas.size() < minCount) {
      return metas;
    }
    List<ManifestFileMeta> large = new ArrayList<>();
    List<ManifestFileMeta> small = new ArrayList<>();
    for (ManifestFileMeta meta : metas) {
      (meta.fileSize() < smallSize ? small : large).add(meta);
    }
    if (large.size() >= minCount) {
      return fold(metas, schemaId, context, true);
    }
    if (small.size() < Math.max(2, minCount - large.size())) {
      return metas;
    }
    List<ManifestFileMeta> result = new ArrayList<>(large);
    result.addAll(fold(small, schemaId, context, false));
    return result;
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
}

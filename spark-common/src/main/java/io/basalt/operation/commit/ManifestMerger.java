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
 * Keeps the number of manifests a snapshot references bounded: once it reaches {@code
 * manifest.merge-min-count}, all manifests are folded into the live files and rewritten as few
 * full-size manifests, so ADD/DELETE pairs cancel out. Costs one read of the table's metadata every
 * that-many commits; files are never rewritten in place.
 */
final class ManifestMerger {
  private final ManifestFiles manifests;
  private final int minCount;
  private final List<String> newFiles = new ArrayList<>();

  ManifestMerger(ManifestFiles manifests, int minCount) {
    this.manifests = manifests;
    this.minCount = minCount;
  }

  /** The manifests to reference: {@code metas} itself, or a merged replacement. */
  List<ManifestFileMeta> merge(List<ManifestFileMeta> metas, long schemaId, String context) {
    if (metas.size() < minCount) {
      return metas;
    }
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

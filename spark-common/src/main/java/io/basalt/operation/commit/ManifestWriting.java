package io.basalt.operation.commit;

import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.RollingManifestWriter;
import io.basalt.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Writes one commit attempt's metadata: the delta manifests holding its changes, and the base
 * manifest list of everything before them (merged when small manifests pile up). Remembers every
 * file it wrote, so an attempt that does not land can delete exactly its own files.
 */
final class ManifestWriting {
  private final ManifestFiles manifests;
  private final long schemaId;
  private final int mergeMinCount;
  private final long targetFileSize;
  private final long fullCompactionThreshold;
  private final String context;
  private final List<String> written = new ArrayList<>();

  ManifestWriting(
      ManifestFiles manifests,
      long schemaId,
      int mergeMinCount,
      long targetFileSize,
      long fullCompactionThreshold,
      String context) {
    this.manifests = manifests;
    this.schemaId = schemaId;
    this.mergeMinCount = mergeMinCount;
    this.targetFileSize = targetFileSize;
    this.fullCompactionThreshold = fullCompactionThreshold;
    this.context = context;
  }

  /**
   * The base and delta manifest lists of a new snapshot, and its changelog manifest list (null
   * without changelog files).
   */
  record Lists(
      ManifestFiles.WrittenList base,
      ManifestFiles.WrittenList delta,
      @Nullable ManifestFiles.WrittenList changelog) {}

  Lists write(@Nullable Snapshot latest, List<ManifestEntry> delta) {
    return write(latest, delta, List.of());
  }

  Lists write(@Nullable Snapshot latest, List<ManifestEntry> delta, List<ManifestEntry> changelog) {
    ManifestFiles.WrittenList deltaList = writeList(delta);
    ManifestFiles.WrittenList changelogList = changelog.isEmpty() ? null : writeList(changelog);

    List<ManifestFileMeta> previous = new ArrayList<>();
    if (latest != null) {
      previous.addAll(manifests.readManifestList(latest.baseManifestList()));
      previous.addAll(manifests.readManifestList(latest.deltaManifestList()));
    }
    ManifestMerger merger =
        new ManifestMerger(manifests, mergeMinCount, targetFileSize, fullCompactionThreshold);
    List<ManifestFileMeta> base;
    try {
      base = merger.merge(previous, schemaId, context);
    } finally {
      written.addAll(merger.newFiles());
    }
    return new Lists(remember(manifests.writeManifestList(base)), deltaList, changelogList);
  }

  /** Writes {@code entries} as manifests and a manifest list over them. */
  private ManifestFiles.WrittenList writeList(List<ManifestEntry> entries) {
    RollingManifestWriter writer = manifests.newManifestWriter(schemaId);
    List<ManifestFileMeta> metas;
    try {
      for (ManifestEntry entry : entries) {
        writer.write(entry);
      }
      metas = writer.result();
    } finally {
      written.addAll(writer.writtenNames());
    }
    return remember(manifests.writeManifestList(metas));
  }

  private ManifestFiles.WrittenList remember(ManifestFiles.WrittenList list) {
    written.add(list.fileName());
    return list;
  }

  /** Records a file written for this attempt elsewhere (the index manifest). */
  void remember(String fileName) {
    written.add(fileName);
  }

  /** The files this attempt wrote, to delete when it does not land. */
  List<String> written() {
    return written;
  }
}

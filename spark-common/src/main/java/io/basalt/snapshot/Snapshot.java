package io.basalt.snapshot;

import io.basalt.utils.Check;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * An immutable table version, as stored in {@code snapshot/snapshot-<id>} (format-notes.md section
 * 3). The base manifest list holds every data manifest up to the previous snapshot, the delta list
 * this snapshot's own changes.
 */
public record Snapshot(
    int version,
    long id,
    long schemaId,
    String baseManifestList,
    @Nullable Long baseManifestListSize,
    String deltaManifestList,
    @Nullable Long deltaManifestListSize,
    @Nullable String changelogManifestList,
    @Nullable Long changelogManifestListSize,
    @Nullable String indexManifest,
    String commitUser,
    long commitIdentifier,
    CommitKind commitKind,
    long timeMillis,
    @Nullable Map<Integer, Long> logOffsets,
    @Nullable Long totalRecordCount,
    @Nullable Long deltaRecordCount,
    @Nullable Long changelogRecordCount,
    @Nullable Long watermark,
    @Nullable String statistics,
    @Nullable Map<String, String> properties,
    @Nullable Long nextRowId)
    implements java.io.Serializable {

  /** The snapshot file version Basalt writes and the newest it reads. */
  public static final int CURRENT_VERSION = 3;

  /** The commit identifier of batch writes, which are never deduplicated. */
  public static final long BATCH_COMMIT_IDENTIFIER = Long.MAX_VALUE;

  /**
   * Basalt's marker in {@link #properties} of a COMPACT snapshot whose compactions all wrote the
   * top level (full compactions); {@code full-compaction.delta-commits} counts from it.
   */
  public static final String FULL_COMPACTION_PROPERTY = "basalt.full-compaction";

  public Snapshot {
    Check.argument(id >= 1, "Invalid snapshot id %s", id);
    Check.notNull(baseManifestList, "baseManifestList");
    Check.notNull(deltaManifestList, "deltaManifestList");
    Check.notNull(commitUser, "commitUser");
    Check.notNull(commitKind, "commitKind");
    logOffsets = logOffsets == null ? null : Map.copyOf(logOffsets);
    properties = properties == null ? null : Map.copyOf(properties);
  }
}

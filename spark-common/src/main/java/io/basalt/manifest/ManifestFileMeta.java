package io.basalt.manifest;

import io.basalt.utils.Check;
import javax.annotation.Nullable;

/**
 * One row of a manifest list: a manifest file and the summary that lets planning skip it
 * (format-notes.md section 4.2).
 */
public record ManifestFileMeta(
    String fileName,
    long fileSize,
    long numAddedFiles,
    long numDeletedFiles,
    SimpleStats partitionStats,
    long schemaId,
    @Nullable Integer minBucket,
    @Nullable Integer maxBucket,
    @Nullable Integer minLevel,
    @Nullable Integer maxLevel)
    implements java.io.Serializable {

  public ManifestFileMeta {
    Check.notNull(fileName, "fileName");
    Check.notNull(partitionStats, "partitionStats");
  }
}

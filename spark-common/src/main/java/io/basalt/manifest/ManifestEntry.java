package io.basalt.manifest;

import io.basalt.data.BinaryRow;
import io.basalt.utils.Check;

/**
 * One row of a data manifest: a file added to or deleted from a (partition, bucket).
 *
 * @param totalBuckets the bucket count the file was written with: N for fixed buckets, -1 for
 *     bucket-unaware append tables
 */
public record ManifestEntry(
    FileKind kind, BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file)
    implements java.io.Serializable {

  public ManifestEntry {
    Check.notNull(kind, "kind");
    Check.notNull(partition, "partition");
    Check.notNull(file, "file");
  }

  /** The identity of the file this entry talks about, the same for its ADD and its DELETE. */
  public FileIdentifier identifier() {
    return new FileIdentifier(partition, bucket, file.level(), file.fileName());
  }

  /** This entry's file, marked deleted. */
  public ManifestEntry asDelete() {
    return new ManifestEntry(FileKind.DELETE, partition, bucket, totalBuckets, file);
  }

  /**
   * What makes a file unique in a table. Paimon also counts extra files, the embedded index and the
   * external path, which Basalt never writes.
   */
  public record FileIdentifier(BinaryRow partition, int bucket, int level, String fileName)
      implements java.io.Serializable {}
}

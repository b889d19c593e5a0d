package io.basalt.index;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.FileKind;
import io.basalt.utils.Check;
import java.io.Serializable;

/**
 * One row of an index manifest: an index file of a bucket (format-notes.md section 4.4). In a
 * stored index manifest every entry is an ADD, since the file lists the complete state; DELETE
 * entries only appear in the changes a commit applies to that state.
 *
 * @param kind whether the file is added to or removed from the state
 * @param partition the partition values
 * @param bucket the bucket; 0 for bucket-unaware append tables
 * @param indexFile the index file
 */
public record IndexManifestEntry(
    FileKind kind, BinaryRow partition, int bucket, IndexFileMeta indexFile)
    implements Serializable {

  public IndexManifestEntry {
    Check.notNull(kind, "kind");
    Check.notNull(partition, "partition");
    Check.notNull(indexFile, "indexFile");
  }

  /** A copy of this entry with {@code newKind}. */
  public IndexManifestEntry withKind(FileKind newKind) {
    return new IndexManifestEntry(newKind, partition, bucket, indexFile);
  }
}

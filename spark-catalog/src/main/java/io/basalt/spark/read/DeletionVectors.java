package io.basalt.spark.read;

import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.table.FileStoreTable;
import javax.annotation.Nullable;

/** Loads the deletion vectors of data files for the columnar read. */
final class DeletionVectors {
  private DeletionVectors() {}

  /**
   * The deletion vector of {@code file}, or null if {@code deletion} is null or deletes nothing.
   */
  @Nullable
  static DeletionVector load(
      FileStoreTable table, DataFileMeta file, @Nullable DeletionFile deletion) {
    if (deletion == null) {
      return null;
    }
    DeletionVector vector =
        new DeletionVectorIndexFile(
                table.fileIO(),
                new IndexFilePaths(table.paths()),
                BucketDeletionVectors.ONE_FILE_PER_BUCKET)
            .read(
                deletion.indexFileName(),
                new DeletionVectorMeta(
                    file.fileName(),
                    Math.toIntExact(deletion.offset()),
                    Math.toIntExact(deletion.length()),
                    deletion.cardinality()));
    return vector.isEmpty() ? null : vector;
  }
}

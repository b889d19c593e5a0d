package io.basalt.operation.write;

import io.basalt.BasaltException;
import io.basalt.bucket.BucketFunction;
import io.basalt.bucket.DynamicBucketAssigner;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ProjectedRow;
import io.basalt.index.HashIndexFile;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.options.DynamicBucketOptions;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The write side of a dynamic-bucket table: picks each row's bucket through a {@link
 * DynamicBucketAssigner} over the base snapshot's HASH index, and at the end writes the new HASH
 * index file of every bucket that gained keys. Not thread-safe.
 */
final class DynamicBuckets {
  private final FileStoreTable table;
  private final ProjectedRow keyView;
  private final BinaryRowCodec keyCodec;
  private final DynamicBucketAssigner assigner;
  private final HashIndexFile indexFile;
  private int lastHash;

  DynamicBuckets(
      FileStoreTable table, ProjectedRow keyView, BinaryRowCodec keyCodec, BucketState state) {
    this.table = table;
    this.keyView = keyView;
    this.keyCodec = keyCodec;
    this.indexFile = new HashIndexFile(table.fileIO(), new IndexFilePaths(table.paths()));
    this.assigner =
        new DynamicBucketAssigner(
            assigners(table),
            table.options().get(DynamicBucketOptions.TARGET_ROW_NUM),
            table.options().get(DynamicBucketOptions.MAX_BUCKETS),
            new DynamicBucketAssigner.IndexSource() {
              @Override
              public Map<Integer, IndexFileMeta> hashFiles(BinaryRow partition) {
                return state.hashIndexFiles(partition);
              }

              @Override
              public void forEachHash(IndexFileMeta file, java.util.function.IntConsumer consumer) {
                indexFile.forEach(file, consumer);
              }
            },
            table.name());
  }

  /**
   * The number of assigners of a write to {@code table}: {@code
   * dynamic-bucket.assigner-parallelism}, which the Spark layer sets for each write (1 when unset).
   */
  static int assigners(FileStoreTable table) {
    return table.options().getOptional(DynamicBucketOptions.ASSIGNER_PARALLELISM).orElse(1);
  }

  /** The bucket of {@code row} in {@code partition}. */
  int bucket(BinaryRow partition, InternalRow row) {
    lastHash = BucketFunction.hash(keyCodec.toBinary(keyView.replace(row)));
    return assigner.assign(partition, lastHash);
  }

  /**
   * Whether the last row's bucket is owned by the row's assigner (else: table written before with
   * another assigner count, and another task may write that bucket too).
   */
  boolean lastBucketOwned(int bucket) {
    return assigner.ownsBucketOf(lastHash, bucket);
  }

  /** Whether this write's assigner of {@code row}'s key owns {@code bucket}. */
  boolean owns(InternalRow row, int bucket) {
    return assigner.ownsBucketOf(
        BucketFunction.hash(keyCodec.toBinary(keyView.replace(row))), bucket);
  }

  /** The error when a bucket that another task may write too would need a lookup or compaction. */
  BasaltException foreignBucketNeedsLookup(int bucket) {
    return new BasaltException(
        String.format(
            "Table %s: bucket %s holds keys assigned with another number of assigners than this"
                + " write's %s, and this table's reads need each bucket written by one task"
                + " (deletion vectors, a first-row merge engine or the lookup changelog producer)."
                + " Nothing was committed. Fix:"
                + " set '%s' to the value the table was written with.",
            table.name(),
            bucket,
            assigners(table),
            DynamicBucketOptions.ASSIGNER_PARALLELISM.key()));
  }

  /** Writes the new HASH index files; (partition, bucket) -> [new file, replaced file or null]. */
  Map<List<Object>, IndexFileMeta[]> writeIndexFiles() {
    Map<List<Object>, IndexFileMeta[]> written = new HashMap<>();
    List<IndexFileMeta> done = new ArrayList<>();
    try {
      List<DynamicBucketAssigner.NewHashes> pending = assigner.newHashes();
      for (DynamicBucketAssigner.NewHashes added : pending) {
        IndexFileMeta file = indexFile.write(added.previous(), added.hashes().iterator());
        done.add(file);
        written.put(
            List.of(added.partition(), added.bucket()),
            new IndexFileMeta[] {file, added.previous()});
      }
      for (int i = 0; i < pending.size(); i++) {
        assigner.written(pending.get(i), done.get(i));
      }
    } catch (RuntimeException e) {
      IndexFilePaths paths = new IndexFilePaths(table.paths());
      for (IndexFileMeta file : done) {
        table.fileIO().delete(paths.toPath(file), false);
      }
      throw e;
    }
    return written;
  }
}

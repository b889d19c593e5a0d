package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowComparator;
import io.basalt.deletionvectors.Bitmap64DeletionVector;
import io.basalt.deletionvectors.BitmapDeletionVector;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Finds, in every file of one bucket (all levels), the rows that carry a deleted key. A file of a
 * primary-key table holds only some versions of a key, so each file is read on its own: one cursor
 * per file moves forward through the file's key order as the deleted keys come in ascending order,
 * and the positions of matching rows are marked. A file is opened only when a deleted key falls in
 * its key range, and closed once the keys pass it; memory is one open reader per file and the
 * marks.
 */
final class BucketKeyDeletes {
  final BinaryRow partition;
  final int bucket;
  final DataSplit split;
  private final String tableName;
  private final List<DataFileMeta> files;
  private final SplitRead read;
  private final KeyValueLayout layout;
  private final RowComparator keyOrder;
  private final boolean bitmap64;
  private final InternalRow[] minKeys;
  private final InternalRow[] maxKeys;
  private final CloseableIterator<InternalRow>[] cursors;
  private final InternalRow[] heads;
  private final long[] positions;
  private final boolean[] passed;
  private final DeletionVector[] marks;
  @Nullable private InternalRow lastKey;

  @SuppressWarnings("unchecked")
  BucketKeyDeletes(
      String tableName, DataSplit split, SplitRead read, KeyValueLayout layout, boolean bitmap64) {
    this.tableName = tableName;
    this.partition = split.partition();
    this.bucket = split.bucket();
    this.split = split;
    this.files = split.files();
    this.read = read;
    this.layout = layout;
    this.keyOrder = layout.keyComparator();
    this.bitmap64 = bitmap64;
    int n = files.size();
    this.minKeys = new InternalRow[n];
    this.maxKeys = new InternalRow[n];
    BinaryRowCodec keyCodec = new BinaryRowCodec(layout.keyType());
    for (int i = 0; i < n; i++) {
      minKeys[i] = keyCodec.toRow(files.get(i).minKey());
      maxKeys[i] = keyCodec.toRow(files.get(i).maxKey());
    }
    this.cursors = new CloseableIterator[n];
    this.heads = new InternalRow[n];
    this.positions = new long[n];
    this.passed = new boolean[n];
    this.marks = new DeletionVector[n];
  }

  /**
   * Marks every row of {@code key} in the bucket's files. Keys must come in strictly ascending key
   * order (a repeated key is ignored); the caller must not change {@code key} afterwards.
   */
  void delete(InternalRow key) {
    if (lastKey != null) {
      int order = keyOrder.compare(key, lastKey);
      if (order == 0) {
        return;
      }
      if (order < 0) {
        // the write's required ordering guarantees this; a miss would silently keep rows
        throw new IllegalStateException(
            String.format(
                "Deleted keys of bucket %s of table %s arrive out of key order (%s after %s);"
                    + " nothing was committed",
                bucket, tableName, key, lastKey));
      }
    }
    lastKey = key;
    for (int i = 0; i < files.size(); i++) {
      if (passed[i] || keyOrder.compare(key, minKeys[i]) < 0) {
        continue;
      }
      if (keyOrder.compare(key, maxKeys[i]) > 0) {
        finishFile(i);
        continue;
      }
      markKey(i, key);
    }
  }

  private void markKey(int i, InternalRow key) {
    if (cursors[i] == null) {
      cursors[i] = read.open(split, files.get(i), layout.fileSchema(), null);
      positions[i] = -1;
      advance(i);
    }
    while (heads[i] != null && keyOrder.compare(heads[i], key) < 0) {
      advance(i);
    }
    while (heads[i] != null && keyOrder.compare(heads[i], key) == 0) {
      if (marks[i] == null) {
        marks[i] = bitmap64 ? new Bitmap64DeletionVector() : new BitmapDeletionVector();
      }
      marks[i].delete(positions[i]);
      advance(i);
    }
    if (heads[i] == null) {
      finishFile(i);
    }
  }

  private void advance(int i) {
    if (cursors[i].hasNext()) {
      heads[i] = cursors[i].next();
      positions[i]++;
    } else {
      heads[i] = null;
    }
  }

  private void finishFile(int i) {
    passed[i] = true;
    heads[i] = null;
    if (cursors[i] != null) {
      cursors[i].close();
      cursors[i] = null;
    }
  }

  /** Closes every open reader; the marks stay. */
  void closeReaders() {
    for (int i = 0; i < files.size(); i++) {
      if (cursors[i] != null) {
        cursors[i].close();
        cursors[i] = null;
      }
      heads[i] = null;
    }
  }

  /** The number of the bucket's files. */
  int fileCount() {
    return files.size();
  }

  DataFileMeta file(int i) {
    return files.get(i);
  }

  /** The rows of file {@code i} to delete, or null when none. */
  @Nullable
  DeletionVector marks(int i) {
    return marks[i];
  }
}

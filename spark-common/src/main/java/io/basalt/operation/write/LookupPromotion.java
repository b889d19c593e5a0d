package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.RowComparator;
import io.basalt.data.RowKind;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.merge.MergeFunction;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.compact.SortedRun;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Moves a bucket's level-0 files up for deletion-vector tables: merges them into one sorted run at
 * a level above 0 and, for every key written, looks up the older live version in the levels above
 * (a streaming merge join over their key columns). What happens then depends on the merge engine:
 * deduplicate marks the older version deleted and writes the new one; first-row keeps the older
 * version and drops the new one; partial-update and aggregation merge the older version's values
 * with the new row, write the result and mark the older version deleted. Afterwards each key has
 * exactly one live row in levels above 0, so reads need no merge. Retractions are not written:
 * marking the old version deleted is the delete.
 */
public final class LookupPromotion {
  private final FileStoreTable table;
  private final WriteContext context;
  private final KeyValueLayout layout;
  private final Comparator<InternalRow> versionOrder;
  private final RowComparator keyOrder;
  private final SplitRead read;
  private final MergeEngine mergeEngine;

  public LookupPromotion(
      FileStoreTable table, KeyValueLayout layout, Comparator<InternalRow> versionOrder) {
    this.table = table;
    this.mergeEngine = MergeEngine.of(table);
    this.context = WriteContext.of(table);
    this.layout = layout;
    this.versionOrder = versionOrder;
    this.keyOrder = layout.keyComparator();
    this.read = table.newRead(table.rowType());
  }

  /**
   * Writes {@code level0}'s rows at {@code outputLevel}; returns the files written.
   *
   * @param deletionVectors the bucket's vectors; null only for engines that keep the oldest version
   *     (first-row), which never delete an older row
   */
  List<DataFileMeta> promote(
      DataSplit bucket,
      List<DataFileMeta> level0,
      List<SortedRun> upper,
      int outputLevel,
      @Nullable BucketDeletionVectors deletionVectors) {

    BinaryRow partition = bucket.partition();
    RollingDataFileWriter writer =
        new RollingDataFileWriter(
            context,
            table.dataFilePaths().bucketDir(partition, bucket.bucket()),
            outputLevel,
            layout,
            0,
            DataFileMeta.SOURCE_COMPACT);
    DataSplit newFiles =
        new DataSplit(0, partition, bucket.bucket(), bucket.totalBuckets(), level0, false);
    List<KeyCursor> cursors = new ArrayList<>();
    MergeFunction withOld = mergeEngine.newMergeFunction(layout, layout.valueFields());
    try (MergeIterator merged =
        new MergeIterator(
            read.openRuns(newFiles, layout, layout.fileSchema()),
            layout,
            versionOrder,
            mergeEngine.newMergeFunction(layout, layout.valueFields()),
            true)) {
      for (SortedRun run : upper) {
        cursors.add(new KeyCursor(bucket, run.files(), deletionVectors));
      }
      while (merged.hasNext()) {
        InternalRow row = merged.next();
        KeyCursor old = null;
        for (KeyCursor cursor : cursors) {
          if (cursor.seek(row)) {
            old = cursor;
          }
        }
        InternalRow result = row;
        if (old != null && mergeEngine.keepsOldest()) {
          continue;
        }
        if (old != null && mergeEngine.mergesWithOldValue()) {
          withOld.reset();
          withOld.add(old.current);
          withOld.add(row);
          result = withOld.result();
        }
        if (old != null) {
          old.deleteCurrent(deletionVectors);
        }
        if (result != null && RowKind.isAdd(result.getByte(layout.kindIndex()))) {
          writer.write(result);
        }
      }
      return writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    } finally {
      for (KeyCursor cursor : cursors) {
        cursor.close();
      }
    }
  }

  /** Walks the live keys of one older sorted run in order, remembering file and position. */
  private final class KeyCursor implements AutoCloseable {
    private final DataSplit bucket;
    private final List<DataFileMeta> files;
    @Nullable private final BucketDeletionVectors deletionVectors;
    // the old values are read only when the engine merges them with the new row
    private final StructType schema =
        mergeEngine.mergesWithOldValue() ? layout.fileSchema() : layout.schemaWithValues(List.of());
    private int fileIndex = -1;
    private CloseableIterator<InternalRow> rows;
    private long position;
    private InternalRow current;

    KeyCursor(
        DataSplit bucket,
        List<DataFileMeta> files,
        @Nullable BucketDeletionVectors deletionVectors) {
      this.bucket = bucket;
      this.files = files;
      this.deletionVectors = deletionVectors;
      advance();
    }

    /** Moves to {@code row}'s key; whether this run has a live older version of it. */
    boolean seek(InternalRow row) {
      while (current != null && keyOrder.compare(current, row) < 0) {
        advance();
      }
      return current != null && keyOrder.compare(current, row) == 0;
    }

    /** Marks the row {@link #seek} found deleted. */
    void deleteCurrent(BucketDeletionVectors vectors) {
      vectors.delete(files.get(fileIndex).fileName(), position);
    }

    /** Moves to the next row not already deleted, across files. */
    private void advance() {
      while (true) {
        if (rows != null && rows.hasNext()) {
          current = rows.next();
          position++;
          var deleted =
              deletionVectors == null ? null : deletionVectors.get(files.get(fileIndex).fileName());
          if (deleted == null || !deleted.isDeleted(position)) {
            return;
          }
          continue;
        }
        if (rows != null) {
          rows.close();
          rows = null;
        }
        if (++fileIndex >= files.size()) {
          current = null;
          return;
        }
        rows = read.open(bucket, files.get(fileIndex), schema, null);
        position = -1;
      }
    }

    @Override
    public void close() {
      if (rows != null) {
        rows.close();
      }
    }
  }
}

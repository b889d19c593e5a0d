package io.basalt.operation.write;

import io.basalt.changelog.LookupProducer;
import io.basalt.changelog.RowDeduplicate;
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
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Moves a bucket's level-0 files up by a lookup (tables with deletion vectors, first-row tables and
 * tables with the {@code lookup} changelog producer): merges them into one sorted run at a level
 * above 0 and, for every key written, looks up its previous value in the levels above (a streaming
 * merge join over them). Deduplicate keeps the new row, first-row the older one, partial-update and
 * aggregation merge the previous value with the new row. With deletion vectors the older version is
 * marked deleted, so each key keeps one live row above level 0 and reads need no merge. Without, a
 * {@code lookup} table writes the whole merged row (a retraction too) above the older versions,
 * which reads then ignore (see {@link io.basalt.changelog.LookupProducer}). With the {@code lookup}
 * producer the promotion also writes each key's change between its previous and new merged rows.
 */
public final class LookupPromotion {
  private final FileStoreTable table;
  private final WriteContext context;
  private final KeyValueLayout layout;
  private final Comparator<InternalRow> versionOrder;
  private final RowComparator keyOrder;
  private final SplitRead read;
  private final MergeEngine mergeEngine;
  // Paimon's lookup changelog producer: the promotion knows each key's before and after rows
  private final boolean changelog;
  private final RowDeduplicate deduplicate;
  private final MergeFunction withOld;
  private final List<KeyCursor> matches = new ArrayList<>();

  public LookupPromotion(
      FileStoreTable table, KeyValueLayout layout, Comparator<InternalRow> versionOrder) {
    this.table = table;
    this.mergeEngine = MergeEngine.of(table);
    this.context = WriteContext.of(table);
    this.layout = layout;
    this.versionOrder = versionOrder;
    this.keyOrder = layout.keyComparator();
    this.read = table.newRead(table.rowType());
    this.changelog = LookupProducer.enabled(table.options());
    this.deduplicate = RowDeduplicate.of(table.schema(), table.options(), table.name());
    this.withOld = mergeEngine.newMergeFunction(layout, layout.valueFields());
  }

  /** What a promotion wrote: the data files and the lookup changelog files. */
  record Output(List<DataFileMeta> files, List<DataFileMeta> changelog) {}

  /** Whether promotions also write the {@code lookup} changelog of the keys they move up. */
  boolean producesChangelog() {
    return changelog;
  }

  /**
   * Writes {@code level0}'s rows at {@code outputLevel}, and with the {@code lookup} producer their
   * changelog; returns the files written.
   *
   * @param deletionVectors the bucket's vectors; null when the table has none, and then the older
   *     versions stay in place
   * @param outputLevel the level to write at, or -1 to write only the changelog (nothing moves)
   */
  Output promote(
      DataSplit bucket,
      List<DataFileMeta> level0,
      List<SortedRun> upper,
      int outputLevel,
      @Nullable BucketDeletionVectors deletionVectors) {
    BinaryRow partition = bucket.partition();
    Path bucketDir = table.dataFilePaths().bucketDir(partition, bucket.bucket());
    RollingDataFileWriter writer =
        outputLevel < 0
            ? null
            : new RollingDataFileWriter(
                context, bucketDir, outputLevel, layout, 0, DataFileMeta.SOURCE_COMPACT);
    RollingDataFileWriter changes =
        changelog
            ? new RollingDataFileWriter(
                context,
                bucketDir,
                0,
                layout,
                0,
                DataFileMeta.SOURCE_COMPACT,
                RollingDataFileWriter.CHANGELOG_PREFIX)
            : null;
    LookupChangelog emitter =
        changes == null ? null : new LookupChangelog(layout, deduplicate, changes::write);
    DataSplit newFiles =
        new DataSplit(0, partition, bucket.bucket(), bucket.totalBuckets(), level0, false);
    List<KeyCursor> cursors = new ArrayList<>();
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
        List<KeyCursor> older = seek(cursors, row);
        InternalRow before = older.isEmpty() ? null : previous(older);
        if (before != null && !RowKind.isAdd(before.getByte(layout.kindIndex()))) {
          before = null; // a retraction above level 0 (no deletion vectors): the key has no row
        }
        boolean kept = before != null && mergeEngine.keepsOldest();
        InternalRow after = kept ? before : merge(before, row);
        if (emitter != null && !kept && after != null) {
          emitter.emit(before, after);
        }
        if (writer != null) {
          write(writer, older, before, row, kept ? null : after, deletionVectors);
        }
      }
      List<DataFileMeta> files = writer == null ? List.of() : writer.finish();
      return new Output(files, changes == null ? List.of() : changes.finish());
    } catch (RuntimeException e) {
      if (writer != null) {
        writer.abort();
      }
      if (changes != null) {
        changes.abort();
      }
      throw e;
    } finally {
      for (KeyCursor cursor : cursors) {
        cursor.close();
      }
    }
  }

  /**
   * Writes a key's new data. With deletion vectors its older versions are deleted and the merged
   * row ({@code after}, null to keep the older one) replaces them. Without, the older versions
   * stay: with the lookup producer the merged row goes above them whole (a retraction too, so that
   * it supersedes them); otherwise (first-row) the new row is written when the key had none.
   */
  private void write(
      RollingDataFileWriter writer,
      List<KeyCursor> older,
      @Nullable InternalRow before,
      InternalRow row,
      @Nullable InternalRow after,
      @Nullable BucketDeletionVectors deletionVectors) {
    if (deletionVectors == null && !changelog) {
      if (older.isEmpty() && RowKind.isAdd(row.getByte(layout.kindIndex()))) {
        writer.write(row);
      }
      return;
    }
    if (after == null) {
      return;
    }
    if (deletionVectors != null) {
      for (KeyCursor cursor : older) {
        cursor.deleteCurrent(deletionVectors);
      }
    }
    boolean live = RowKind.isAdd(after.getByte(layout.kindIndex()));
    boolean supersedes = deletionVectors == null && before != null;
    if (live || supersedes) {
      writer.write(after);
    }
  }

  /** The cursors holding an older version of {@code row}'s key. */
  private List<KeyCursor> seek(List<KeyCursor> cursors, InternalRow row) {
    matches.clear();
    for (KeyCursor cursor : cursors) {
      if (cursor.seek(row)) {
        matches.add(cursor);
      }
    }
    return matches;
  }

  /**
   * The key's merged older value: the newest older version. With deletion vectors it is the only
   * live one; without, the lookup layout keeps each key's newest version above level 0 whole.
   */
  private InternalRow previous(List<KeyCursor> older) {
    InternalRow newest = older.get(0).current;
    for (int i = 1; i < older.size(); i++) {
      if (versionOrder.compare(older.get(i).current, newest) > 0) {
        newest = older.get(i).current;
      }
    }
    return newest;
  }

  /** The key's new merged value: {@code row} over the older value, when there is one. */
  @Nullable
  private InternalRow merge(@Nullable InternalRow before, InternalRow row) {
    if (before == null || !(mergeEngine.mergesWithOldValue() || changelog)) {
      return row;
    }
    withOld.reset();
    withOld.add(before);
    withOld.add(row);
    return withOld.result();
  }

  /** Walks the live keys of one older sorted run in order, remembering file and position. */
  private final class KeyCursor implements AutoCloseable {
    private final DataSplit bucket;
    private final List<DataFileMeta> files;
    @Nullable private final BucketDeletionVectors deletionVectors;
    // the old values are read only when the engine merges them with the new row
    private final StructType schema =
        mergeEngine.mergesWithOldValue() || changelog
            ? layout.fileSchema()
            : layout.schemaWithValues(List.of());
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

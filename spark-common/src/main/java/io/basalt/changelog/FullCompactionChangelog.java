package io.basalt.changelog;

import io.basalt.data.RowKind;
import io.basalt.merge.MergeFunction;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.utils.CloseableIterator;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * The {@code full-compaction} changelog producer: wraps the merge function of a compaction whose
 * output is the top level and, for each key, compares the version the top level held before (the
 * result of the previous full compaction) with the newly merged one. It emits {@code +I} for a new
 * key, {@code -U} and {@code +U} for a changed one (both full images, so partial-update and
 * aggregation give merged rows), {@code -D} for a removed one and nothing for an unchanged one;
 * with {@link RowValueComparison}, a changed key whose compared values are equal emits nothing.
 *
 * <p>Only the top level is a committed state of the table at an earlier changelog: any other run
 * holds changes not yet in the changelog. That is why only compactions into the top level produce
 * it, and why the top-level version is the "before" image. Memory: one copied row per image.
 */
public final class FullCompactionChangelog implements MergeFunction {
  private final MergeFunction merge;
  private final TopLevelRun topLevel;
  private final Consumer<InternalRow> changelog;
  @Nullable private final RowValueComparison deduplicate;
  private final int kindIndex;
  private final UnsafeProjection beforeCopy;
  private final UnsafeProjection afterCopy;
  @Nullable private UnsafeRow before;
  private int versions;

  /**
   * @param merge the table's merge function for full key-value rows
   * @param topLevel the run of the top-level files (possibly empty)
   * @param changelog receives the changelog rows; each is valid only during the call
   * @param deduplicate drops {@code -U/+U} pairs of equal values; null keeps them
   */
  public FullCompactionChangelog(
      MergeFunction merge,
      TopLevelRun topLevel,
      KeyValueLayout layout,
      Consumer<InternalRow> changelog,
      @Nullable RowValueComparison deduplicate) {
    this.merge = merge;
    this.topLevel = topLevel;
    this.changelog = changelog;
    this.deduplicate = deduplicate;
    this.kindIndex = layout.kindIndex();
    this.beforeCopy = UnsafeProjection.create(layout.fileSchema());
    this.afterCopy = UnsafeProjection.create(layout.fileSchema());
  }

  @Override
  public void reset() {
    merge.reset();
    before = null;
    versions = 0;
  }

  @Override
  public void add(InternalRow keyValue) {
    versions++;
    // the top-level version is the oldest of its key; copy it, as the run moves on meanwhile
    if (topLevel.isCurrent(keyValue) && RowKind.isAdd(keyValue.getByte(kindIndex))) {
      before = beforeCopy.apply(keyValue);
    }
    merge.add(keyValue);
  }

  @Override
  @Nullable
  public InternalRow result() {
    InternalRow merged = merge.result();
    boolean exists = merged != null && RowKind.isAdd(merged.getByte(kindIndex));
    if (before == null) {
      if (exists) {
        emit(afterCopy.apply(merged), RowKind.INSERT);
      }
    } else if (!exists) {
      emit(before, RowKind.DELETE);
    } else if (versions > 1 && (deduplicate == null || !deduplicate.sameValues(before, merged))) {
      emit(before, RowKind.UPDATE_BEFORE);
      emit(afterCopy.apply(merged), RowKind.UPDATE_AFTER);
    }
    return merged;
  }

  private void emit(UnsafeRow row, RowKind kind) {
    row.setByte(kindIndex, kind.value());
    changelog.accept(row);
  }

  /**
   * The run of the top-level files, remembering the row it handed out last, so that the merge can
   * tell which version of a key comes from the top level.
   */
  public static final class TopLevelRun implements CloseableIterator<InternalRow> {
    @Nullable private final CloseableIterator<InternalRow> rows;
    @Nullable private InternalRow current;

    /**
     * @param rows the top-level run; null when the bucket has no top-level file
     */
    public TopLevelRun(@Nullable CloseableIterator<InternalRow> rows) {
      this.rows = rows;
    }

    boolean isCurrent(InternalRow row) {
      return current != null && row == current;
    }

    @Override
    public boolean hasNext() {
      return rows != null && rows.hasNext();
    }

    @Override
    public InternalRow next() {
      current = rows.next();
      return current;
    }

    @Override
    public void close() {
      if (rows != null) {
        rows.close();
      }
    }
  }
}

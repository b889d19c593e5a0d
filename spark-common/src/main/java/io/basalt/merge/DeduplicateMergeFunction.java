package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.schema.DataField;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;

/**
 * deduplicate: the newest version wins; a newest retraction removes the key (or is skipped with
 * {@code ignore-delete}). Keeps only a reference to the newest row, which the reuse contract keeps
 * valid, so it copies nothing unless an ignored retraction follows it.
 */
final class DeduplicateMergeFunction implements MergeFunction {
  private final int kindIndex;
  private final boolean ignoreDelete;
  private final UnsafeProjection copier;
  @Nullable private InternalRow newest;
  private boolean copied;

  DeduplicateMergeFunction(KeyValueLayout layout, List<DataField> values, boolean ignoreDelete) {
    this.kindIndex = layout.kindIndex();
    this.ignoreDelete = ignoreDelete;
    this.copier = UnsafeProjection.create(layout.schemaWithValues(values));
  }

  @Override
  public void reset() {
    newest = null;
    copied = false;
  }

  @Override
  public void add(InternalRow keyValue) {
    if (ignoreDelete && !RowKind.isAdd(keyValue.getByte(kindIndex))) {
      if (newest != null && !copied) {
        // an ignored row follows: the newest kept row is valid only until this call returns
        newest = copier.apply(newest);
        copied = true;
      }
      return;
    }
    newest = keyValue;
    copied = false;
  }

  @Nullable
  @Override
  public InternalRow result() {
    return newest;
  }
}

package io.basalt.merge;

import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.schema.DataField;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;

/**
 * first-row: the oldest version wins and later versions are ignored. Retractions are dropped with
 * {@code ignore-delete} and fail otherwise (writers reject them earlier). The first row is copied
 * into a reused buffer only when a second version arrives, while it is still valid.
 */
final class FirstRowMergeFunction implements MergeFunction {
  private final int kindIndex;
  private final boolean ignoreDelete;
  private final String table;
  private final UnsafeProjection copier;
  @Nullable private InternalRow first;
  private boolean copied;

  FirstRowMergeFunction(
      KeyValueLayout layout, List<DataField> values, boolean ignoreDelete, String table) {
    this.kindIndex = layout.kindIndex();
    this.ignoreDelete = ignoreDelete;
    this.table = table;
    this.copier = UnsafeProjection.create(layout.schemaWithValues(values));
  }

  @Override
  public void reset() {
    first = null;
    copied = false;
  }

  @Override
  public void add(InternalRow keyValue) {
    if (first != null && !copied) {
      // the first row is valid until this call returns: keep a copy of it from now on
      first = copier.apply(first);
      copied = true;
    }
    byte kind = keyValue.getByte(kindIndex);
    if (!RowKind.isAdd(kind)) {
      if (ignoreDelete) {
        return;
      }
      throw MergeErrors.firstRowRetraction(table, RowKind.values()[kind]);
    }
    if (first == null) {
      first = keyValue;
    }
  }

  @Nullable
  @Override
  public InternalRow result() {
    return first;
  }
}

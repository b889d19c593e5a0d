package io.basalt.spark.read;

import io.basalt.data.RowKind;
import io.basalt.operation.incremental.ChangeIterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The rows of {@code t$binlog}, as Paimon shows them: the row kind, then each column as an array,
 * {@code [value]} for an insert or delete and {@code [before, after]} for an update (a -U row
 * followed by its +U). Rows are copied, since a pair outlives the reader's row reuse; binlog reads
 * are for inspection, not a hot path.
 */
final class BinlogRows {
  private BinlogRows() {}

  /** Binlog rows of {@code changes}, whose rows have the columns {@code dataSchema}. */
  static java.util.Iterator<InternalRow> of(ChangeIterator changes, StructType dataSchema) {
    DataType[] types = new DataType[dataSchema.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = dataSchema.fields()[i].dataType();
    }
    UnsafeProjection copier = UnsafeProjection.create(dataSchema);
    return new java.util.Iterator<>() {
      private InternalRow pending;
      private RowKind pendingKind;

      @Override
      public boolean hasNext() {
        return pending != null || changes.hasNext();
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        InternalRow row;
        RowKind kind;
        if (pending != null) {
          row = pending;
          kind = pendingKind;
          pending = null;
        } else {
          row = copier.apply(changes.next()).copy();
          kind = changes.kind();
        }
        if (kind == RowKind.UPDATE_BEFORE && changes.hasNext()) {
          InternalRow after = copier.apply(changes.next()).copy();
          if (changes.kind() == RowKind.UPDATE_AFTER) {
            return binlog(RowKind.UPDATE_AFTER, row, after);
          }
          pending = after;
          pendingKind = changes.kind();
        }
        return binlog(kind, row, null);
      }

      private InternalRow binlog(RowKind kind, InternalRow first, InternalRow second) {
        Object[] values = new Object[types.length + 1];
        values[0] = UTF8String.fromString(kind.shortString());
        for (int i = 0; i < types.length; i++) {
          Object value = first.isNullAt(i) ? null : first.get(i, types[i]);
          if (second == null) {
            values[i + 1] = new GenericArrayData(new Object[] {value});
          } else {
            Object after = second.isNullAt(i) ? null : second.get(i, types[i]);
            values[i + 1] = new GenericArrayData(new Object[] {value, after});
          }
        }
        return new GenericInternalRow(values);
      }
    };
  }
}

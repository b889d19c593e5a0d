package io.basalt.operation.write;

import io.basalt.changelog.RowDeduplicate;
import io.basalt.data.DelegatingRow;
import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The change of one key between its previous merged row and its new merged row, as Paimon's {@code
 * lookup} changelog producer writes it: {@code +I} when the key had no row, {@code -U} then {@code
 * +U} when its row changed, {@code -D} when it was removed, and nothing when a key without row is
 * removed. With {@code row-deduplicate}, a pair whose compared values are equal is dropped. Rows
 * are key-value rows of the file schema; the rows handed to the sink are reused views, valid until
 * the next call.
 */
final class LookupChangelog {
  private final int kindIndex;
  private final Consumer<InternalRow> sink;
  private final KindRow view;
  @Nullable private final ValueEquality equality;

  /**
   * @param deduplicate the table's {@code row-deduplicate} settings
   * @param sink receives each change row
   */
  LookupChangelog(KeyValueLayout layout, RowDeduplicate deduplicate, Consumer<InternalRow> sink) {
    StructType schema = layout.fileSchema();
    this.kindIndex = layout.kindIndex();
    this.sink = sink;
    this.view = new KindRow(types(schema), kindIndex);
    this.equality =
        deduplicate.enabled()
            ? new ValueEquality(schema, layout, deduplicate.ignoredFields())
            : null;
  }

  /**
   * Emits the change of one key.
   *
   * @param before the key's previous merged row; null or a retraction when it had none
   * @param after the key's new merged row; null or a retraction when it has none
   */
  void emit(@Nullable InternalRow before, @Nullable InternalRow after) {
    boolean had = before != null && RowKind.isAdd(before.getByte(kindIndex));
    boolean has = after != null && RowKind.isAdd(after.getByte(kindIndex));
    if (!had) {
      if (has) {
        sink.accept(view.of(after, RowKind.INSERT));
      }
      return;
    }
    if (!has) {
      sink.accept(view.of(before, RowKind.DELETE));
      return;
    }
    if (equality != null && equality.equal(before, after)) {
      return;
    }
    sink.accept(view.of(before, RowKind.UPDATE_BEFORE));
    sink.accept(view.of(after, RowKind.UPDATE_AFTER));
  }

  private static DataType[] types(StructType schema) {
    DataType[] types = new DataType[schema.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = schema.fields()[i].dataType();
    }
    return types;
  }

  /** A key-value row seen with another row kind; reused. */
  private static final class KindRow extends DelegatingRow {
    private final int kindIndex;
    private InternalRow row;
    private byte kind;

    KindRow(DataType[] types, int kindIndex) {
      super(types);
      this.kindIndex = kindIndex;
    }

    KindRow of(InternalRow newRow, RowKind newKind) {
      this.row = newRow;
      this.kind = newKind.value();
      return this;
    }

    @Override
    protected InternalRow row(int ordinal) {
      return row;
    }

    @Override
    protected int index(int ordinal) {
      return ordinal;
    }

    @Override
    public byte getByte(int ordinal) {
      return ordinal == kindIndex ? kind : row.getByte(ordinal);
    }
  }

  /**
   * Compares the value columns of two key-value rows, except the ignored ones, by their binary
   * form: equal values of any type, nested ones included, have equal bytes.
   */
  private static final class ValueEquality {
    private final ProjectedRow left;
    private final ProjectedRow right;
    private final UnsafeProjection leftBytes;
    private final UnsafeProjection rightBytes;

    ValueEquality(StructType schema, KeyValueLayout layout, java.util.Set<String> ignored) {
      List<Integer> indices = new ArrayList<>();
      List<StructField> fields = new ArrayList<>();
      for (int i = layout.valueOffset(); i < schema.size(); i++) {
        if (!ignored.contains(schema.fields()[i].name())) {
          indices.add(i);
          fields.add(schema.fields()[i]);
        }
      }
      StructType compared = new StructType(fields.toArray(new StructField[0]));
      int[] positions = indices.stream().mapToInt(Integer::intValue).toArray();
      this.left = new ProjectedRow(types(compared), positions);
      this.right = new ProjectedRow(types(compared), positions);
      this.leftBytes = UnsafeProjection.create(compared);
      this.rightBytes = UnsafeProjection.create(compared);
    }

    boolean equal(InternalRow a, InternalRow b) {
      return leftBytes.apply(left.replace(a)).equals(rightBytes.apply(right.replace(b)));
    }
  }
}

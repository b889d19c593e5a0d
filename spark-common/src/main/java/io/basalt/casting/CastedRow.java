package io.basalt.casting;

import io.basalt.BasaltException;
import io.basalt.data.DelegatingRow;
import io.basalt.utils.CloseableIterator;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A view of a row read with a file's own column types as a row of the table's current types: the
 * columns whose type changed since the file was written are converted once per row by {@link
 * ValueCasts}, the others are read through. Reused through {@link #replace}; callers that keep a
 * row copy it.
 */
public final class CastedRow extends DelegatingRow {
  private final DataType[] fileTypes;
  private final DataType[] readTypes;
  private final String[] names;
  private final ValueCast[] casts;
  private final Object[] values;
  private final GenericInternalRow castValues;
  private final Function<RuntimeException, String> context;
  private InternalRow row;

  private CastedRow(
      StructType fileType, StructType readType, Function<RuntimeException, String> context) {
    super(types(readType));
    int size = readType.size();
    this.fileTypes = types(fileType);
    this.readTypes = types(readType);
    this.names = readType.fieldNames();
    this.casts = new ValueCast[size];
    this.values = new Object[size];
    this.castValues = new GenericInternalRow(values);
    this.context = context;
    for (int i = 0; i < size; i++) {
      if (!fileTypes[i].equals(readTypes[i])) {
        casts[i] = ValueCasts.resolve(fileTypes[i], readTypes[i]);
        if (casts[i] == null) {
          throw new BasaltException(
              String.format(
                  "Cannot read column '%s' stored as %s as its current type %s: Paimon's cast"
                      + " rules have no conversion. %s",
                  names[i], fileTypes[i].sql(), readTypes[i].sql(), context.apply(null)));
        }
      }
    }
  }

  /**
   * The rows of {@code rows}, of type {@code fileType}, as rows of {@code readType} (the same
   * columns in the same order, some of another type).
   *
   * @param where names the table and file in error messages
   */
  public static CloseableIterator<InternalRow> wrap(
      CloseableIterator<InternalRow> rows, StructType fileType, StructType readType, String where) {
    CastedRow view =
        new CastedRow(fileType, readType, e -> where + (e == null ? "" : ": " + e.getMessage()));
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public InternalRow next() {
        return view.replace(rows.next());
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }

  /** Points this view at {@code newRow}, converting its changed columns, and returns it. */
  public CastedRow replace(InternalRow newRow) {
    this.row = newRow;
    for (int i = 0; i < casts.length; i++) {
      if (casts[i] != null) {
        values[i] = newRow.isNullAt(i) ? null : cast(i, newRow.get(i, fileTypes[i]));
      }
    }
    return this;
  }

  @Nullable
  private Object cast(int i, Object value) {
    try {
      return casts[i].cast(value);
    } catch (RuntimeException e) {
      throw new BasaltException(
          String.format(
              "Cannot read column '%s': the value %s stored as %s (the column's type when the"
                  + " file was written) does not convert to %s, the column's type since ALTER"
                  + " TABLE. Fix: change the column back to %s (ALTER TABLE ... ALTER COLUMN %s"
                  + " TYPE %s), correct or delete that row, then change the type again. %s",
              names[i],
              value instanceof byte[] ? "(binary)" : "'" + value + "'",
              fileTypes[i].sql(),
              readTypes[i].sql(),
              fileTypes[i].sql(),
              names[i],
              fileTypes[i].sql(),
              context.apply(e)),
          e);
    }
  }

  @Override
  protected InternalRow row(int ordinal) {
    return casts[ordinal] == null ? row : castValues;
  }

  @Override
  protected int index(int ordinal) {
    return ordinal;
  }

  private static DataType[] types(StructType type) {
    StructField[] fields = type.fields();
    DataType[] types = new DataType[fields.length];
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].dataType();
    }
    return types;
  }
}

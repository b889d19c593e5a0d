package io.basalt.format;

import io.basalt.data.ValueComparators;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Collects min, max and null count of each top-level column while rows are written, for formats
 * whose files keep no usable statistics (Avro) or keep them in another form (ORC); Paimon collects
 * Avro stats the same way. Primitive columns compare without boxing; a string, binary or decimal
 * bound is copied only when it changes. Columns without an order (arrays, maps, structs) get {@link
 * ColumnStats#UNKNOWN}. A float or double column that holds NaN gets no min/max, so no predicate
 * ever prunes a file that holds a NaN.
 */
public final class StatsCollector {
  private final Column[] columns;

  /** A collector for rows of {@code schema}. */
  public StatsCollector(StructType schema) {
    StructField[] fields = schema.fields();
    this.columns = new Column[fields.length];
    for (int i = 0; i < fields.length; i++) {
      columns[i] = column(fields[i].dataType(), i);
    }
  }

  /** Folds {@code row} into the statistics. */
  public void update(InternalRow row) {
    for (Column column : columns) {
      column.update(row);
    }
  }

  /** The statistics of each column, in schema order. */
  public List<ColumnStats> result() {
    List<ColumnStats> stats = new ArrayList<>(columns.length);
    for (Column column : columns) {
      stats.add(column.result());
    }
    return stats;
  }

  private static Column column(DataType type, int ordinal) {
    if (type instanceof BooleanType) {
      return new LongColumn(ordinal, r -> r.getBoolean(ordinal) ? 1 : 0, v -> v != 0);
    } else if (type instanceof ByteType) {
      return new LongColumn(ordinal, r -> r.getByte(ordinal), v -> (byte) v);
    } else if (type instanceof ShortType) {
      return new LongColumn(ordinal, r -> r.getShort(ordinal), v -> (short) v);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return new LongColumn(ordinal, r -> r.getInt(ordinal), v -> (int) v);
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return new LongColumn(ordinal, r -> r.getLong(ordinal), v -> v);
    } else if (type instanceof FloatType) {
      return new DoubleColumn(ordinal, r -> r.getFloat(ordinal), v -> (float) v);
    } else if (type instanceof DoubleType) {
      return new DoubleColumn(ordinal, r -> r.getDouble(ordinal), v -> v);
    } else if (type instanceof DecimalType decimal) {
      return new ObjectColumn(
          ordinal,
          type,
          r -> r.getDecimal(ordinal, decimal.precision(), decimal.scale()),
          v -> ((Decimal) v).clone());
    } else if (type instanceof BinaryType) {
      return new ObjectColumn(ordinal, type, r -> r.getBinary(ordinal), v -> ((byte[]) v).clone());
    } else if (ValueComparators.isOrderable(type)) {
      // strings, chars and varchars
      return new ObjectColumn(
          ordinal, type, r -> r.getUTF8String(ordinal), v -> ((UTF8String) v).clone());
    }
    return new Unordered(ordinal);
  }

  private abstract static class Column {
    final int ordinal;
    long nullCount;

    Column(int ordinal) {
      this.ordinal = ordinal;
    }

    final void update(InternalRow row) {
      if (row.isNullAt(ordinal)) {
        nullCount++;
      } else {
        updateValue(row);
      }
    }

    abstract void updateValue(InternalRow row);

    abstract ColumnStats result();
  }

  private static final class Unordered extends Column {
    Unordered(int ordinal) {
      super(ordinal);
    }

    @Override
    void updateValue(InternalRow row) {}

    @Override
    ColumnStats result() {
      return ColumnStats.UNKNOWN;
    }
  }

  private interface LongGetter {
    long get(InternalRow row);
  }

  private interface LongBox {
    Object box(long value);
  }

  private static final class LongColumn extends Column {
    private final LongGetter getter;
    private final LongBox box;
    private boolean seen;
    private long min;
    private long max;

    LongColumn(int ordinal, LongGetter getter, LongBox box) {
      super(ordinal);
      this.getter = getter;
      this.box = box;
    }

    @Override
    void updateValue(InternalRow row) {
      long value = getter.get(row);
      if (!seen) {
        seen = true;
        min = value;
        max = value;
      } else if (value < min) {
        min = value;
      } else if (value > max) {
        max = value;
      }
    }

    @Override
    ColumnStats result() {
      return seen
          ? new ColumnStats(box.box(min), box.box(max), nullCount)
          : new ColumnStats(null, null, nullCount);
    }
  }

  private interface DoubleGetter {
    double get(InternalRow row);
  }

  private interface DoubleBox {
    Object box(double value);
  }

  private static final class DoubleColumn extends Column {
    private final DoubleGetter getter;
    private final DoubleBox box;
    private boolean seen;
    private boolean nan;
    private double min;
    private double max;

    DoubleColumn(int ordinal, DoubleGetter getter, DoubleBox box) {
      super(ordinal);
      this.getter = getter;
      this.box = box;
    }

    @Override
    void updateValue(InternalRow row) {
      double value = getter.get(row);
      if (Double.isNaN(value)) {
        nan = true;
      } else if (!seen) {
        seen = true;
        min = value;
        max = value;
      } else if (Double.compare(value, min) < 0) {
        min = value;
      } else if (Double.compare(value, max) > 0) {
        max = value;
      }
    }

    @Override
    ColumnStats result() {
      return seen && !nan
          ? new ColumnStats(box.box(min), box.box(max), nullCount)
          : new ColumnStats(null, null, nullCount);
    }
  }

  private interface ObjectGetter {
    Object get(InternalRow row);
  }

  private interface Copier {
    Object copy(Object value);
  }

  private static final class ObjectColumn extends Column {
    private final ObjectGetter getter;
    private final Copier copier;
    private final java.util.Comparator<Object> order;
    private Object min;
    private Object max;

    ObjectColumn(int ordinal, DataType type, ObjectGetter getter, Copier copier) {
      super(ordinal);
      this.getter = getter;
      this.copier = copier;
      this.order = ValueComparators.forType(type);
    }

    @Override
    void updateValue(InternalRow row) {
      Object value = getter.get(row);
      if (min == null) {
        min = copier.copy(value);
        max = min;
      } else if (order.compare(value, min) < 0) {
        min = copier.copy(value);
      } else if (order.compare(value, max) > 0) {
        max = copier.copy(value);
      }
    }

    @Override
    ColumnStats result() {
      return new ColumnStats(min, max, nullCount);
    }
  }
}

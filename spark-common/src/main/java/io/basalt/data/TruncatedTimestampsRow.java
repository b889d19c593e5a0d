package io.basalt.data;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * A view of a table row whose timestamp columns of precision below Spark's 6 are cut down to that
 * precision (rounded towards negative infinity, like Paimon's millis). Writers see each value once
 * in the column's precision, so keys, buckets, file contents and statistics all agree. Reused
 * through {@link #replace}.
 */
public final class TruncatedTimestampsRow extends DelegatingRow {
  // per column, the micros one unit of its precision spans (1: left as is)
  private final long[] units;
  private InternalRow row;

  private TruncatedTimestampsRow(DataType[] types, long[] units) {
    super(types);
    this.units = units;
  }

  /** The view for rows of {@code rowType}, or null when no column needs truncating. */
  @Nullable
  public static TruncatedTimestampsRow of(StructType rowType) {
    StructField[] fields = rowType.fields();
    DataType[] types = new DataType[fields.length];
    long[] units = new long[fields.length];
    boolean any = false;
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].dataType();
      units[i] = 1;
      boolean timestamp = types[i] instanceof TimestampType || types[i] instanceof TimestampNTZType;
      if (timestamp && TimestampPrecision.of(fields[i]) < TimestampPrecision.DEFAULT) {
        units[i] =
            (long) Math.pow(10, TimestampPrecision.DEFAULT - TimestampPrecision.of(fields[i]));
        any = true;
      }
    }
    return any ? new TruncatedTimestampsRow(types, units) : null;
  }

  /** Points this view at {@code newRow} and returns it. */
  public TruncatedTimestampsRow replace(InternalRow newRow) {
    this.row = newRow;
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
  public long getLong(int ordinal) {
    long value = row.getLong(ordinal);
    long unit = units[ordinal];
    return unit == 1 ? value : Math.floorDiv(value, unit) * unit;
  }

  @Override
  public Object get(int ordinal, DataType dataType) {
    if (units[ordinal] == 1 || row.isNullAt(ordinal)) {
      return row.get(ordinal, dataType);
    }
    return getLong(ordinal);
  }
}

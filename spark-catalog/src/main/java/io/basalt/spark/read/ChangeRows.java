package io.basalt.spark.read;

import io.basalt.data.RowKind;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The {@value #ROW_KIND} column of change reads ({@code t$audit_log}): the row kind as Paimon
 * writes it ({@code +I}, {@code -U}, {@code +U}, {@code -D}), in front of the table columns.
 */
public final class ChangeRows {
  /** The name of the row-kind column, as in Paimon. */
  public static final String ROW_KIND = "rowkind";

  public static final StructField ROW_KIND_FIELD =
      new StructField(
          ROW_KIND, DataTypes.StringType, false, org.apache.spark.sql.types.Metadata.empty());

  private static final InternalRow[] KIND_ROWS = new InternalRow[RowKind.values().length];

  static {
    for (RowKind kind : RowKind.values()) {
      KIND_ROWS[kind.ordinal()] =
          new GenericInternalRow(new Object[] {UTF8String.fromString(kind.shortString())});
    }
  }

  private final JoinedRow joined = new JoinedRow();

  /** {@code row} with {@code kind} in front; the returned row is reused. */
  InternalRow withKind(RowKind kind, InternalRow row) {
    return joined.apply(KIND_ROWS[kind.ordinal()], row);
  }

  /** {@code columns} with the row-kind column in front. */
  public static StructType withRowKind(StructType columns) {
    StructField[] fields = new StructField[columns.size() + 1];
    fields[0] = ROW_KIND_FIELD;
    System.arraycopy(columns.fields(), 0, fields, 1, columns.size());
    return new StructType(fields);
  }

  /**
   * {@code columns} as {@code t$binlog} columns: the row kind, then an array of each column's type.
   */
  public static StructType binlogSchema(StructType columns) {
    StructField[] fields = new StructField[columns.size() + 1];
    fields[0] = ROW_KIND_FIELD;
    for (int i = 0; i < columns.size(); i++) {
      StructField column = columns.fields()[i];
      fields[i + 1] =
          new StructField(
              column.name(),
              new org.apache.spark.sql.types.ArrayType(column.dataType(), true),
              true,
              column.metadata());
    }
    return new StructType(fields);
  }
}

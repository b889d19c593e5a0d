package io.basalt.rowtracking;

import io.basalt.manifest.DataFileMeta;
import io.basalt.options.Options;
import io.basalt.options.RowTrackingOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Row tracking, laid out as Paimon 1.3 does. A commit gives each new file written by a writer a
 * {@code firstRowId} (taken from the snapshot's {@code nextRowId}, which advances by the file's row
 * count) and the new snapshot's id as its sequence numbers. A row's {@value #ROW_ID} is then its
 * file's first row id plus its position, and its {@value #SEQUENCE_NUMBER} the file's max sequence
 * number. Files that rewrite rows (compaction, re-clustering, copy-on-write updates) store both
 * values in two trailing BIGINT columns of those names, with Paimon's field ids; a null there (an
 * updated or inserted row) falls back to the file-level value.
 */
public final class RowTracking {
  private RowTracking() {}

  public static final String ROW_ID = "_ROW_ID";
  public static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";

  /** Paimon's field ids of the two columns (its SpecialFields). */
  public static final int ROW_ID_FIELD_ID = Integer.MAX_VALUE - 5;

  public static final int SEQUENCE_NUMBER_FIELD_ID = Integer.MAX_VALUE - 1;

  /** Whether the table of {@code options} tracks rows. */
  public static boolean enabled(Options options) {
    return options.get(RowTrackingOptions.ROW_TRACKING_ENABLED);
  }

  /** Whether the table of {@code schema} tracks rows. */
  public static boolean enabled(TableSchema schema) {
    return enabled(new Options(schema.options(), "table"));
  }

  /** The stored {@value #ROW_ID} column: nullable BIGINT with Paimon's field id. */
  public static StructField rowIdField() {
    return field(ROW_ID, ROW_ID_FIELD_ID);
  }

  /** The stored {@value #SEQUENCE_NUMBER} column: nullable BIGINT with Paimon's field id. */
  public static StructField sequenceNumberField() {
    return field(SEQUENCE_NUMBER, SEQUENCE_NUMBER_FIELD_ID);
  }

  private static StructField field(String name, int id) {
    return new StructField(
        name,
        DataTypes.LongType,
        true,
        new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build());
  }

  /** {@code columns} followed by the two row-tracking columns: the layout of rewritten files. */
  public static StructType withTrackingColumns(StructType columns) {
    StructField[] fields = Arrays.copyOf(columns.fields(), columns.size() + 2);
    fields[columns.size()] = rowIdField();
    fields[columns.size() + 1] = sequenceNumberField();
    return new StructType(fields);
  }

  /**
   * The row id of the row at {@code position} of {@code file}, read as {@code row} with the stored
   * {@value #ROW_ID} at {@code index}: the stored id, else the file's first row id plus the
   * position; null when the file has neither (written before the commit assigned ids).
   */
  @Nullable
  public static Long rowId(InternalRow row, int index, DataFileMeta file, long position) {
    if (!row.isNullAt(index)) {
      return row.getLong(index);
    }
    return file.firstRowId() == null ? null : file.firstRowId() + position;
  }

  /** The sequence number of {@code row}: the stored one, else the file's max sequence number. */
  public static long sequenceNumber(InternalRow row, int index, DataFileMeta file) {
    return row.isNullAt(index) ? file.maxSequenceNumber() : row.getLong(index);
  }
}

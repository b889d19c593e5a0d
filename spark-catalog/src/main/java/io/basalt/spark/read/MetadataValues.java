package io.basalt.spark.read;

import io.basalt.data.BinaryRowCodec;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** The metadata columns' values for the rows of one split, as a row and as column vectors. */
final class MetadataValues {
  /** The metadata columns the scan reads, in output order. */
  private final StructType fields;

  /** The selected partition fields (in the order the scan asked for them), or null. */
  private final InternalRow partition;

  private final int bucket;
  private final GenericInternalRow row;
  private final int filePathIndex;
  private final int rowIndexIndex;
  private final int rowValuesIndex;
  private final int rowIdIndex;
  private final int sequenceNumberIndex;
  private UTF8String filePath;

  MetadataValues(StructType fields, FileStoreTable table, DataSplit split) {
    this.fields = fields;
    this.bucket = split.bucket();
    int partitionIndex = index(MetadataColumns.PARTITION);
    if (partitionIndex >= 0) {
      StructType requested = (StructType) fields.fields()[partitionIndex].dataType();
      StructType all = table.partitionType();
      InternalRow values = new BinaryRowCodec(all).toRow(split.partition());
      Object[] selected = new Object[requested.size()];
      for (int i = 0; i < selected.length; i++) {
        int from = all.fieldIndex(requested.fields()[i].name());
        selected[i] =
            values.isNullAt(from) ? null : values.get(from, all.fields()[from].dataType());
      }
      this.partition = new GenericInternalRow(selected);
    } else {
      this.partition = null;
    }
    this.filePathIndex = index(MetadataColumns.FILE_PATH);
    this.rowIndexIndex = index(MetadataColumns.ROW_INDEX);
    this.rowValuesIndex = index(MetadataColumns.ROW);
    this.rowIdIndex = index(MetadataColumns.ROW_ID);
    this.sequenceNumberIndex = index(MetadataColumns.SEQUENCE_NUMBER);
    this.row = new GenericInternalRow(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      switch (fields.fields()[i].name()) {
        case MetadataColumns.PARTITION -> row.update(i, partition);
        case MetadataColumns.BUCKET -> row.setInt(i, bucket);
        default -> row.setNullAt(i);
      }
    }
  }

  private int index(String name) {
    return fields.getFieldIndex(name).isDefined() ? fields.fieldIndex(name) : -1;
  }

  /** Sets the data file the next rows come from. */
  void setFile(String path) {
    this.filePath = UTF8String.fromString(path);
    if (filePathIndex >= 0) {
      row.update(filePathIndex, filePath);
    }
  }

  /** Sets the position in its file of the next row. */
  void setRowIndex(long position) {
    if (rowIndexIndex >= 0) {
      row.setLong(rowIndexIndex, position);
    }
  }

  /** Sets the row id (null: none assigned) and sequence number of the next row. */
  void setRowTracking(@javax.annotation.Nullable Long rowId, long sequenceNumber) {
    if (rowIdIndex >= 0) {
      if (rowId == null) {
        row.setNullAt(rowIdIndex);
      } else {
        row.setLong(rowIdIndex, rowId);
      }
    }
    if (sequenceNumberIndex >= 0) {
      row.setLong(sequenceNumberIndex, sequenceNumber);
    }
  }

  /**
   * Sets the values of the next row, whose table columns are every column in table order (the scan
   * reads them all when it reads {@value MetadataColumns#ROW}); the row is referenced, not copied.
   */
  void setRowValues(InternalRow values) {
    if (rowValuesIndex >= 0) {
      row.update(rowValuesIndex, values);
    }
  }

  /** The metadata columns of the current row; updated in place by the setters. */
  InternalRow row() {
    return row;
  }

  /**
   * The metadata columns of a batch of {@code numRows} rows of the current file, in order.
   *
   * @param rowIndexes the rows' positions in the file, if the scan reads {@value
   *     MetadataColumns#ROW_INDEX}
   */
  org.apache.spark.sql.vectorized.ColumnVector[] vectors(
      int numRows, org.apache.spark.sql.vectorized.ColumnVector rowIndexes) {
    org.apache.spark.sql.vectorized.ColumnVector[] vectors =
        new org.apache.spark.sql.vectorized.ColumnVector[fields.size()];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] =
          i == rowIndexIndex
              ? rowIndexes
              : constant(numRows, fields.fields()[i].dataType(), row, i);
    }
    return vectors;
  }

  private static ConstantColumnVector constant(
      int numRows, DataType type, InternalRow values, int index) {
    ConstantColumnVector vector = new ConstantColumnVector(numRows, type);
    if (type instanceof StructType struct) {
      if (values.isNullAt(index)) {
        vector.setNull();
      }
      InternalRow nested = values.isNullAt(index) ? null : values.getStruct(index, struct.size());
      for (int i = 0; i < struct.size(); i++) {
        vector.setChild(
            i,
            nested == null
                ? nullVector(numRows, struct.fields()[i].dataType())
                : constant(numRows, struct.fields()[i].dataType(), nested, i));
      }
    } else {
      ColumnVectorUtils.populate(vector, values, index);
    }
    return vector;
  }

  private static ConstantColumnVector nullVector(int numRows, DataType type) {
    ConstantColumnVector vector = new ConstantColumnVector(numRows, type);
    vector.setNull();
    return vector;
  }
}

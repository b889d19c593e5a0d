package io.basalt.spark.read;

import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;

/**
 * Spark column vectors over ORC struct, list and map vectors, read in place. A struct's children
 * are the requested fields (a field the file lacks is a null vector); lists and maps address their
 * child vectors by ORC's offsets and lengths.
 */
final class OrcNestedVectors {
  private OrcNestedVectors() {}

  /** A struct column: its requested fields are {@link #getChild children}. */
  static final class Struct extends OrcVector {
    private final ColumnVector[] children;

    Struct(
        DataType type,
        org.apache.hadoop.hive.ql.exec.vector.ColumnVector data,
        ColumnVector[] children) {
      super(type, data);
      this.children = children;
    }

    @Override
    void setRows(int rows) {
      super.setRows(rows);
      for (ColumnVector child : children) {
        if (child instanceof OrcVector orc) {
          orc.setRows(rows);
        }
      }
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return children[ordinal];
    }
  }

  /** An array column over an ORC list vector. */
  static final class Array extends OrcVector {
    private final OrcVector elements;

    Array(DataType type, ListColumnVector data, OrcVector elements) {
      super(type, data);
      this.elements = elements;
    }

    @Override
    void setRows(int rows) {
      super.setRows(rows);
      elements.setRows(((ListColumnVector) data).childCount);
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      ListColumnVector list = (ListColumnVector) data;
      int i = index(rowId);
      return new ColumnarArray(elements, (int) list.offsets[i], (int) list.lengths[i]);
    }
  }

  /** A map column over an ORC map vector. */
  static final class Map extends OrcVector {
    private final OrcVector keys;
    private final OrcVector values;

    Map(DataType type, MapColumnVector data, OrcVector keys, OrcVector values) {
      super(type, data);
      this.keys = keys;
      this.values = values;
    }

    @Override
    void setRows(int rows) {
      super.setRows(rows);
      int entries = ((MapColumnVector) data).childCount;
      keys.setRows(entries);
      values.setRows(entries);
    }

    @Override
    public ColumnarMap getMap(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      MapColumnVector map = (MapColumnVector) data;
      int i = index(rowId);
      return new ColumnarMap(keys, values, (int) map.offsets[i], (int) map.lengths[i]);
    }
  }
}

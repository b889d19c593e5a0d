package io.basalt.format;

import io.basalt.BasaltException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Parquet converters that assemble Spark rows, arrays and maps. The top-level row is one mutable
 * {@link SpecificInternalRow} reused for every record; nested values are fresh objects per record.
 */
final class GroupConverters {
  private GroupConverters() {}

  /** Converts a column of file type {@code file} into {@code read}, storing into {@code slot}. */
  static Converter create(Type file, DataType read, Slot slot, String column, String path) {
    if (file.isPrimitive()) {
      PrimitiveConverter converter = PrimitiveConverters.create(file.asPrimitiveType(), read, slot);
      if (converter == null) {
        throw mismatch(file, read, column, path);
      }
      return converter;
    }
    GroupType group = file.asGroupType();
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    if (read instanceof ArrayType array
        && annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      return new ArrayConverter(group, array, slot, column, path);
    } else if (read instanceof MapType map
        && annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
      return new MapConverter(group, map, slot, column, path);
    } else if (read instanceof StructType struct && annotation == null) {
      return new StructConverter(group, struct, slot, false, column + ".", path);
    }
    throw mismatch(file, read, column, path);
  }

  private static BasaltException mismatch(Type file, DataType read, String column, String path) {
    return new BasaltException(
        String.format(
            "Column %s in Parquet file %s has type '%s', which cannot be read as %s",
            column, path, file.toString().trim(), read.sql()));
  }

  /** Assembles a row; the top-level one is reused, nested ones are created per record. */
  static final class StructConverter extends GroupConverter {
    private final Converter[] converters;
    private final int arity;
    private final boolean reuse;
    private final Slot parent;
    private InternalRow row;

    StructConverter(
        GroupType file, StructType read, Slot parent, boolean reuse, String prefix, String path) {
      this.arity = read.size();
      this.reuse = reuse;
      this.parent = parent;
      this.row = reuse ? new SpecificInternalRow(read) : null;
      this.converters = new Converter[file.getFieldCount()];
      StructField[] fields = read.fields();
      for (int ordinal = 0; ordinal < fields.length; ordinal++) {
        int index = ReadProjection.find(file, fields[ordinal]);
        if (index >= 0) {
          converters[index] =
              create(
                  file.getType(index),
                  fields[ordinal].dataType(),
                  new FieldSlot(ordinal),
                  prefix + fields[ordinal].name(),
                  path);
        }
      }
      for (int index = 0; index < converters.length; index++) {
        if (converters[index] == null) {
          // read only to tell a null struct from one whose requested fields are all missing
          converters[index] = discarding(file.getType(index));
        }
      }
    }

    InternalRow row() {
      return row;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return converters[fieldIndex];
    }

    @Override
    public void start() {
      if (reuse) {
        for (int i = 0; i < arity; i++) {
          row.setNullAt(i);
        }
      } else {
        row = new GenericInternalRow(arity);
      }
    }

    @Override
    public void end() {
      if (parent != null) {
        parent.set(row);
      }
    }

    private final class FieldSlot extends Slot {
      private final int ordinal;

      FieldSlot(int ordinal) {
        this.ordinal = ordinal;
      }

      @Override
      void set(Object value) {
        row.update(ordinal, value);
      }

      @Override
      void setBoolean(boolean value) {
        row.setBoolean(ordinal, value);
      }

      @Override
      void setByte(byte value) {
        row.setByte(ordinal, value);
      }

      @Override
      void setShort(short value) {
        row.setShort(ordinal, value);
      }

      @Override
      void setInt(int value) {
        row.setInt(ordinal, value);
      }

      @Override
      void setLong(long value) {
        row.setLong(ordinal, value);
      }

      @Override
      void setFloat(float value) {
        row.setFloat(ordinal, value);
      }

      @Override
      void setDouble(double value) {
        row.setDouble(ordinal, value);
      }
    }
  }

  /** Collects list elements (3-level or legacy 2-level layout) into a {@code GenericArrayData}. */
  private static final class ArrayConverter extends GroupConverter {
    private final Slot parent;
    private final List<Object> elements = new ArrayList<>();
    private final Converter repeated;

    ArrayConverter(GroupType file, ArrayType read, Slot parent, String column, String path) {
      this.parent = parent;
      String elementColumn = column + ".element";
      if (ReadProjection.isThreeLevelList(file)) {
        Slot.Holder holder = new Slot.Holder();
        Type elementType = file.getType(0).asGroupType().getType(0);
        Converter element = create(elementType, read.elementType(), holder, elementColumn, path);
        this.repeated =
            new EntryConverter(
                new Converter[] {element},
                () -> {
                  elements.add(holder.value);
                  holder.value = null;
                });
      } else {
        Slot append =
            new Slot() {
              @Override
              void set(Object value) {
                elements.add(value);
              }
            };
        this.repeated = create(file.getType(0), read.elementType(), append, elementColumn, path);
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return repeated;
    }

    @Override
    public void start() {
      elements.clear();
    }

    @Override
    public void end() {
      parent.set(new GenericArrayData(elements.toArray()));
    }
  }

  /** Collects map entries into an {@code ArrayBasedMapData}. */
  private static final class MapConverter extends GroupConverter {
    private final Slot parent;
    private final List<Object> keys = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();
    private final Converter keyValue;

    MapConverter(GroupType file, MapType read, Slot parent, String column, String path) {
      this.parent = parent;
      GroupType entry = file.getType(0).asGroupType();
      Slot.Holder key = new Slot.Holder();
      Slot.Holder value = new Slot.Holder();
      Converter[] children = new Converter[entry.getFieldCount()];
      children[0] = create(entry.getType(0), read.keyType(), key, column + ".key", path);
      if (children.length > 1) {
        children[1] = create(entry.getType(1), read.valueType(), value, column + ".value", path);
      }
      this.keyValue =
          new EntryConverter(
              children,
              () -> {
                keys.add(key.value);
                values.add(value.value);
                key.value = null;
                value.value = null;
              });
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return keyValue;
    }

    @Override
    public void start() {
      keys.clear();
      values.clear();
    }

    @Override
    public void end() {
      parent.set(
          new ArrayBasedMapData(
              new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray())));
    }
  }

  /** A repeated group (list entry or map entry) that runs {@code onEnd} after each occurrence. */
  private static final class EntryConverter extends GroupConverter {
    private final Converter[] children;
    private final Runnable onEnd;

    EntryConverter(Converter[] children, Runnable onEnd) {
      this.children = children;
      this.onEnd = onEnd;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {}

    @Override
    public void end() {
      onEnd.run();
    }
  }

  /** A converter that reads a column and drops its values. */
  static Converter discarding(Type type) {
    if (type.isPrimitive()) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {}

        @Override
        public void addBoolean(boolean value) {}

        @Override
        public void addDouble(double value) {}

        @Override
        public void addFloat(float value) {}

        @Override
        public void addInt(int value) {}

        @Override
        public void addLong(long value) {}
      };
    }
    GroupType group = type.asGroupType();
    Converter[] children = new Converter[group.getFieldCount()];
    for (int i = 0; i < children.length; i++) {
      children[i] = discarding(group.getType(i));
    }
    return new EntryConverter(children, () -> {});
  }
}

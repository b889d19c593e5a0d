package io.basalt.format.avro;

import io.basalt.schema.DataField;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.Decoder;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Decoders of Avro data-file values into Spark internal values, built by walking the file's own
 * (writer) schema against the requested Spark type. Record fields are matched by their {@code
 * field-id} property when both sides carry ids, else by name; fields nobody asked for are skipped
 * without being decoded, and requested fields the file lacks read as null. Integers widen to a
 * wider requested type (a column changed from INT to BIGINT reads its old files).
 */
final class AvroValueReaders {
  private AvroValueReaders() {}

  /** Decodes one value (a fresh object, or a box for primitives). */
  interface ValueReader {
    Object read(Decoder in) throws IOException;
  }

  /** Decodes rows of {@code writer} (a record schema) into rows of {@code target}. */
  static final class RecordReader implements ValueReader {
    private final Schema[] fieldSchemas;
    private final ValueReader[] readers;
    private final int[] positions;
    private final int arity;

    RecordReader(Schema writer, StructType target, String path) {
      List<Schema.Field> fields = writer.getFields();
      this.arity = target.size();
      this.fieldSchemas = new Schema[fields.size()];
      this.readers = new ValueReader[fields.size()];
      this.positions = new int[fields.size()];
      for (int i = 0; i < fields.size(); i++) {
        Schema.Field field = fields.get(i);
        fieldSchemas[i] = field.schema();
        positions[i] = indexOf(target, field);
        if (positions[i] >= 0) {
          StructField wanted = target.fields()[positions[i]];
          readers[i] = reader(field.schema(), wanted.dataType(), path + "." + wanted.name());
        }
      }
    }

    @Override
    public Object read(Decoder in) throws IOException {
      GenericInternalRow row = new GenericInternalRow(arity);
      readInto(in, row);
      return row;
    }

    /** Decodes one record into {@code row}, whose fields it all overwrites. */
    void readInto(Decoder in, GenericInternalRow row) throws IOException {
      for (int i = 0; i < arity; i++) {
        row.update(i, null);
      }
      for (int i = 0; i < readers.length; i++) {
        if (positions[i] < 0) {
          GenericDatumReader.skip(fieldSchemas[i], in);
        } else {
          row.update(positions[i], readers[i].read(in));
        }
      }
    }
  }

  private static int indexOf(StructType target, Schema.Field field) {
    Object id = field.getObjectProp(AvroDataSchemas.FIELD_ID_PROP);
    StructField[] wanted = target.fields();
    if (id instanceof Number number) {
      for (int j = 0; j < wanted.length; j++) {
        if (wanted[j].metadata().contains(DataField.FIELD_ID_KEY)) {
          if (wanted[j].metadata().getLong(DataField.FIELD_ID_KEY) == number.longValue()) {
            return j;
          }
        }
      }
      if (hasIds(wanted)) {
        return -1; // the column was dropped, or replaced by a new one of the same name
      }
    }
    for (int j = 0; j < wanted.length; j++) {
      if (wanted[j].name().equals(field.name())) {
        return j;
      }
    }
    return -1;
  }

  private static boolean hasIds(StructField[] fields) {
    for (StructField field : fields) {
      if (!field.metadata().contains(DataField.FIELD_ID_KEY)) {
        return false;
      }
    }
    return fields.length > 0;
  }

  static ValueReader reader(Schema writer, DataType target, String path) {
    switch (writer.getType()) {
      case UNION:
        return union(writer, target, path);
      case NULL:
        return in -> {
          in.readNull();
          return null;
        };
      case BOOLEAN:
        return Decoder::readBoolean;
      case INT:
        return intReader(target);
      case LONG:
        return longReader(writer, target);
      case FLOAT:
        return target instanceof DoubleType ? in -> (double) in.readFloat() : Decoder::readFloat;
      case DOUBLE:
        return Decoder::readDouble;
      case STRING:
        return in -> UTF8String.fromBytes(bytes(in));
      case BYTES:
      case FIXED:
        return bytesReader(writer, target);
      case RECORD:
        return new RecordReader(writer, (StructType) target, path);
      case ARRAY:
        return arrayReader(writer, target, path);
      case MAP:
        return mapReader(writer, (MapType) target, path);
      default:
        throw new IllegalArgumentException(
            "Column " + path + " has Avro type " + writer + ", which Basalt does not read");
    }
  }

  private static ValueReader union(Schema writer, DataType target, String path) {
    List<Schema> branches = writer.getTypes();
    ValueReader[] readers = new ValueReader[branches.size()];
    for (int i = 0; i < readers.length; i++) {
      readers[i] = reader(branches.get(i), target, path);
    }
    return in -> readers[in.readIndex()].read(in);
  }

  private static ValueReader intReader(DataType target) {
    if (target instanceof ByteType) {
      return in -> (byte) in.readInt();
    } else if (target instanceof ShortType) {
      return in -> (short) in.readInt();
    } else if (target instanceof LongType) {
      return in -> (long) in.readInt();
    } else if (target instanceof DoubleType) {
      return in -> (double) in.readInt();
    } else if (target instanceof FloatType) {
      return in -> (float) in.readInt();
    }
    return Decoder::readInt;
  }

  private static ValueReader longReader(Schema writer, DataType target) {
    LogicalType logical = writer.getLogicalType();
    if (logical instanceof LogicalTypes.TimestampMillis
        || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return in -> in.readLong() * 1000L;
    }
    if (target instanceof DoubleType) {
      return in -> (double) in.readLong();
    }
    return Decoder::readLong;
  }

  private static ValueReader bytesReader(Schema writer, DataType target) {
    boolean fixed = writer.getType() == Schema.Type.FIXED;
    int size = fixed ? writer.getFixedSize() : -1;
    if (target instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return in -> {
        byte[] unscaled = fixed ? fixed(in, size) : bytes(in);
        return Decimal.apply(new BigDecimal(new BigInteger(unscaled), scale), precision, scale);
      };
    }
    return in -> fixed ? fixed(in, size) : bytes(in);
  }

  private static byte[] fixed(Decoder in, int size) throws IOException {
    byte[] value = new byte[size];
    in.readFixed(value);
    return value;
  }

  private static byte[] bytes(Decoder in) throws IOException {
    ByteBuffer buffer = in.readBytes(null);
    byte[] value = new byte[buffer.remaining()];
    buffer.get(value);
    return value;
  }

  private static ValueReader arrayReader(Schema writer, DataType target, String path) {
    if (AvroDataSchemas.isArrayMap(writer)) {
      MapType map = (MapType) target;
      Schema entry = writer.getElementType();
      ValueReader key = reader(entry.getField("key").schema(), map.keyType(), path + ".key");
      ValueReader value =
          reader(entry.getField("value").schema(), map.valueType(), path + ".value");
      return in -> {
        List<Object> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
          for (long i = 0; i < n; i++) {
            keys.add(key.read(in));
            values.add(value.read(in));
          }
        }
        return new ArrayBasedMapData(
            new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray()));
      };
    }
    ValueReader element =
        reader(writer.getElementType(), ((ArrayType) target).elementType(), path + ".element");
    return in -> {
      List<Object> elements = new ArrayList<>();
      for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
        for (long i = 0; i < n; i++) {
          elements.add(element.read(in));
        }
      }
      return new GenericArrayData(elements.toArray());
    };
  }

  private static ValueReader mapReader(Schema writer, MapType target, String path) {
    ValueReader value = reader(writer.getValueType(), target.valueType(), path + ".value");
    return in -> {
      List<Object> keys = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
        for (long i = 0; i < n; i++) {
          keys.add(UTF8String.fromBytes(bytes(in)));
          values.add(value.read(in));
        }
      }
      return new ArrayBasedMapData(
          new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray()));
    };
  }
}

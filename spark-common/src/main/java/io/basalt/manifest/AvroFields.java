package io.basalt.manifest;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads manifest record fields by name, so that a file whose writer schema has extra fields, or
 * lacks optional ones, still reads. Every failure is an {@link IllegalArgumentException} naming the
 * field and its record; the file readers add the file name.
 */
final class AvroFields {
  private AvroFields() {}

  /** The value of field {@code name}, or null when the field is absent or null. */
  @Nullable
  static Object value(GenericRecord record, String name) {
    return record.getSchema().getField(name) == null ? null : record.get(name);
  }

  private static Object required(GenericRecord record, String name) {
    Object value = value(record, name);
    if (value == null) {
      throw new IllegalArgumentException(
          String.format(
              "required field %s of %s is missing or null", name, record.getSchema().getName()));
    }
    return value;
  }

  private static <T> T as(Object value, Class<T> type, GenericRecord record, String name) {
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          String.format(
              "field %s of %s holds a %s, expected %s",
              name,
              record.getSchema().getName(),
              value.getClass().getSimpleName(),
              type.getSimpleName()));
    }
    return type.cast(value);
  }

  static int requiredInt(GenericRecord record, String name) {
    return toInt(required(record, name), record, name);
  }

  @Nullable
  static Integer optionalInt(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : toInt(value, record, name);
  }

  private static int toInt(Object value, GenericRecord record, String name) {
    long number = as(value, Number.class, record, name).longValue();
    if (number != (int) number) {
      throw new IllegalArgumentException(
          String.format(
              "field %s of %s holds %s, out of int range",
              name, record.getSchema().getName(), number));
    }
    return (int) number;
  }

  static long requiredLong(GenericRecord record, String name) {
    return as(required(record, name), Number.class, record, name).longValue();
  }

  @Nullable
  static Long optionalLong(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, Number.class, record, name).longValue();
  }

  static String requiredString(GenericRecord record, String name) {
    return as(required(record, name), CharSequence.class, record, name).toString();
  }

  @Nullable
  static String optionalString(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, CharSequence.class, record, name).toString();
  }

  static byte[] requiredBytes(GenericRecord record, String name) {
    return toBytes(as(required(record, name), ByteBuffer.class, record, name));
  }

  @Nullable
  static byte[] optionalBytes(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : toBytes(as(value, ByteBuffer.class, record, name));
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  static GenericRecord requiredRecord(GenericRecord record, String name) {
    return as(required(record, name), GenericRecord.class, record, name);
  }

  static List<String> requiredStrings(GenericRecord record, String name) {
    return strings(required(record, name), record, name);
  }

  @Nullable
  static List<String> optionalStrings(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : strings(value, record, name);
  }

  private static List<String> strings(Object value, GenericRecord record, String name) {
    Collection<?> items = as(value, Collection.class, record, name);
    List<String> strings = new ArrayList<>(items.size());
    for (Object item : items) {
      strings.add(as(item, CharSequence.class, record, name).toString());
    }
    return strings;
  }

  /** A list whose elements may be null, of {@code ["null","long"]} items. */
  @Nullable
  static List<Long> optionalNullableLongs(GenericRecord record, String name) {
    Object value = value(record, name);
    if (value == null) {
      return null;
    }
    Collection<?> items = as(value, Collection.class, record, name);
    List<Long> longs = new ArrayList<>(items.size());
    for (Object item : items) {
      longs.add(item == null ? null : as(item, Number.class, record, name).longValue());
    }
    return longs;
  }

  /** A BinaryRow stored in its serialized form (4-byte arity, then the row bytes). */
  static BinaryRow binaryRow(GenericRecord record, String name) {
    byte[] bytes = requiredBytes(record, name);
    try {
      return BinaryRowCodec.deserialize(bytes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          String.format("field %s of %s: %s", name, record.getSchema().getName(), e.getMessage()),
          e);
    }
  }

  /** The Avro value of a BinaryRow column. */
  static ByteBuffer binaryRowBytes(BinaryRow row) {
    return ByteBuffer.wrap(BinaryRowCodec.serialize(row));
  }
}

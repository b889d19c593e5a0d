package io.basalt.avro;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the fields of a {@link GenericRecord} by name, so that a file whose writer schema has extra
 * fields, or lacks optional ones, still reads: an absent field reads as null. The {@code required}
 * methods reject an absent or null field, the {@code optional} ones return null for it.
 *
 * <p>Numbers are accepted as any {@link Number} (ints are range-checked), strings as any {@link
 * CharSequence} (Avro's {@code Utf8} included) and bytes as a {@link ByteBuffer}, whose remaining
 * bytes are copied. Every failure is an {@link IllegalArgumentException} naming the field and its
 * record; {@link AvroRowReader} adds the file name.
 */
public final class AvroFields {
  private AvroFields() {}

  /** The value of field {@code name}, or null when the field is absent or null. */
  @Nullable
  public static Object value(GenericRecord record, String name) {
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

  public static int requiredInt(GenericRecord record, String name) {
    return toInt(required(record, name), record, name);
  }

  @Nullable
  public static Integer optionalInt(GenericRecord record, String name) {
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

  public static long requiredLong(GenericRecord record, String name) {
    return as(required(record, name), Number.class, record, name).longValue();
  }

  @Nullable
  public static Long optionalLong(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, Number.class, record, name).longValue();
  }

  public static String requiredString(GenericRecord record, String name) {
    return as(required(record, name), CharSequence.class, record, name).toString();
  }

  @Nullable
  public static String optionalString(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, CharSequence.class, record, name).toString();
  }

  public static byte[] requiredBytes(GenericRecord record, String name) {
    return toBytes(as(required(record, name), ByteBuffer.class, record, name));
  }

  @Nullable
  public static byte[] optionalBytes(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : toBytes(as(value, ByteBuffer.class, record, name));
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  public static GenericRecord requiredRecord(GenericRecord record, String name) {
    return as(required(record, name), GenericRecord.class, record, name);
  }

  public static List<String> requiredStrings(GenericRecord record, String name) {
    return strings(required(record, name), record, name);
  }

  @Nullable
  public static List<String> optionalStrings(GenericRecord record, String name) {
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
  public static List<Long> optionalNullableLongs(GenericRecord record, String name) {
    List<Number> numbers = optionalNullableItems(record, name, Number.class);
    if (numbers == null) {
      return null;
    }
    List<Long> longs = new ArrayList<>(numbers.size());
    for (Number number : numbers) {
      longs.add(number == null ? null : number.longValue());
    }
    return longs;
  }

  /** A list whose elements may be null, of {@code ["null", record]} items. */
  @Nullable
  public static List<GenericRecord> optionalNullableRecords(GenericRecord record, String name) {
    return optionalNullableItems(record, name, GenericRecord.class);
  }

  @Nullable
  private static <T> List<T> optionalNullableItems(
      GenericRecord record, String name, Class<T> type) {
    Object value = value(record, name);
    if (value == null) {
      return null;
    }
    Collection<?> items = as(value, Collection.class, record, name);
    List<T> list = new ArrayList<>(items.size());
    for (Object item : items) {
      list.add(item == null ? null : as(item, type, record, name));
    }
    return list;
  }

  /** A BinaryRow stored in its serialized form (4-byte arity, then the row bytes). */
  public static BinaryRow binaryRow(GenericRecord record, String name) {
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
  public static ByteBuffer binaryRowBytes(BinaryRow row) {
    return ByteBuffer.wrap(BinaryRowCodec.serialize(row));
  }
}

package io.basalt.index;

import java.nio.ByteBuffer;
import java.util.Collection;
import javax.annotation.Nullable;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads index manifest fields by name, so a file whose writer schema has extra fields, or lacks
 * optional ones, still reads. Failures are {@link IllegalArgumentException}s naming the field; the
 * reader adds the file name.
 */
final class IndexAvroFields {
  private IndexAvroFields() {}

  @Nullable
  private static Object value(GenericRecord record, String name) {
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

  private static <T> T as(Object value, Class<T> type, String name) {
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          String.format(
              "field %s holds a %s, expected %s",
              name, value.getClass().getSimpleName(), type.getSimpleName()));
    }
    return type.cast(value);
  }

  static int requiredInt(GenericRecord record, String name) {
    long number = as(required(record, name), Number.class, name).longValue();
    if (number != (int) number) {
      throw new IllegalArgumentException(
          String.format("field %s holds %s, out of int range", name, number));
    }
    return (int) number;
  }

  static long requiredLong(GenericRecord record, String name) {
    return as(required(record, name), Number.class, name).longValue();
  }

  @Nullable
  static Long optionalLong(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, Number.class, name).longValue();
  }

  static String requiredString(GenericRecord record, String name) {
    return as(required(record, name), CharSequence.class, name).toString();
  }

  @Nullable
  static String optionalString(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, CharSequence.class, name).toString();
  }

  static byte[] requiredBytes(GenericRecord record, String name) {
    ByteBuffer buffer = as(required(record, name), ByteBuffer.class, name);
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  @Nullable
  static Collection<?> optionalArray(GenericRecord record, String name) {
    Object value = value(record, name);
    return value == null ? null : as(value, Collection.class, name);
  }

  static GenericRecord asRecord(Object value, String name) {
    return as(value, GenericRecord.class, name);
  }
}

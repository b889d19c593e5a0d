package io.basalt.spark.systables;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/** Renders engine values as system-table cells. */
final class Values {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Values() {}

  static UTF8String str(Object value) {
    return value == null ? null : UTF8String.fromString(value.toString());
  }

  /** Milliseconds since the epoch as a Spark TIMESTAMP (microseconds), null stays null. */
  static Long timestamp(Long millis) {
    return millis == null ? null : millis * 1000L;
  }

  static UTF8String json(Object value) {
    try {
      return UTF8String.fromString(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render " + value + " as JSON", e);
    }
  }

  /** The values of {@code row} as strings, one per field of {@code type}, nulls as null. */
  static List<String> strings(BinaryRow row, StructType type) {
    InternalRow decoded = new BinaryRowCodec(type).toRow(row);
    List<String> values = new ArrayList<>(type.size());
    for (int i = 0; i < type.size(); i++) {
      DataType fieldType = type.fields()[i].dataType();
      values.add(decoded.isNullAt(i) ? null : render(decoded.get(i, fieldType), fieldType));
    }
    return values;
  }

  /** {@code row} rendered like Paimon: {@code [v1, v2]}. */
  static String list(BinaryRow row, StructType type) {
    return strings(row, type).toString();
  }

  /**
   * {@code row} named like its partition directory, as Paimon's {@code t$partitions} does: {@code
   * dt=2024-10-09/hh=01}, a null value shown as {@code defaultName} and a BINARY value as its UTF-8
   * text, which is how its directory is named.
   */
  static String spec(BinaryRow row, StructType type, String defaultName) {
    List<String> values = strings(row, type);
    InternalRow decoded = new BinaryRowCodec(type).toRow(row);
    StringBuilder spec = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      spec.append(i == 0 ? "" : "/").append(type.fields()[i].name()).append('=');
      if (values.get(i) == null) {
        spec.append(defaultName);
      } else if (type.fields()[i].dataType() instanceof BinaryType) {
        spec.append(new String(decoded.getBinary(i), StandardCharsets.UTF_8));
      } else {
        spec.append(values.get(i));
      }
    }
    return spec.toString();
  }

  private static String render(Object value, DataType type) {
    if (type instanceof DateType) {
      return LocalDate.ofEpochDay((Integer) value).toString();
    }
    if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      long micros = (Long) value;
      return Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L)
          .atOffset(ZoneOffset.UTC)
          .toLocalDateTime()
          .toString();
    }
    if (type instanceof BinaryType) {
      return HexFormat.of().formatHex((byte[]) value);
    }
    return String.valueOf(value);
  }
}

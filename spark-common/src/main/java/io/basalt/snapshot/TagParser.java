package io.basalt.snapshot;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.basalt.BasaltException;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import javax.annotation.Nullable;

/**
 * Reads and writes tag files: the snapshot JSON, plus {@code tagCreateTime} and {@code
 * tagTimeRetained} when the tag has a retention time. The two fields use the encoding Paimon's
 * Jackson (with its Java-time module) produces: the create time as an array {@code [year, month,
 * day, hour, minute, second, nanos]} (trailing zero second and nanos left out) and the retention as
 * decimal seconds ({@code 86400.000000000}). Reads also accept ISO-8601 strings.
 */
public final class TagParser {
  static final String CREATE_TIME = "tagCreateTime";
  static final String TIME_RETAINED = "tagTimeRetained";

  private TagParser() {}

  /** The tag file text of {@code snapshot}; with both times null, exactly the snapshot JSON. */
  public static String toJson(
      Snapshot snapshot, @Nullable LocalDateTime createTime, @Nullable Duration timeRetained) {
    if (createTime == null && timeRetained == null) {
      return SnapshotParser.toJson(snapshot);
    }
    return SnapshotParser.toJson(
        snapshot,
        json -> {
          if (createTime != null) {
            writeTime(json, createTime);
          }
          if (timeRetained != null) {
            json.writeFieldName(TIME_RETAINED);
            json.writeNumber(
                BigDecimal.valueOf(timeRetained.getSeconds())
                    .add(BigDecimal.valueOf(timeRetained.getNano(), 9))
                    .setScale(9));
          }
        });
  }

  private static void writeTime(JsonGenerator json, LocalDateTime time) throws IOException {
    json.writeArrayFieldStart(CREATE_TIME);
    json.writeNumber(time.getYear());
    json.writeNumber(time.getMonthValue());
    json.writeNumber(time.getDayOfMonth());
    json.writeNumber(time.getHour());
    json.writeNumber(time.getMinute());
    if (time.getSecond() > 0 || time.getNano() > 0) {
      json.writeNumber(time.getSecond());
      if (time.getNano() > 0) {
        json.writeNumber(time.getNano());
      }
    }
    json.writeEndArray();
  }

  /**
   * Parses the tag file text of tag {@code name}.
   *
   * @throws BasaltException naming the file when it is corrupt
   */
  public static Tag fromJson(String name, String text, String fileName) {
    ObjectNode node = SnapshotParser.readObject(text, fileName);
    Snapshot snapshot = SnapshotParser.fromObject(node, fileName);
    try {
      return new Tag(
          name, snapshot, createTime(node.get(CREATE_TIME)), timeRetained(node.get(TIME_RETAINED)));
    } catch (RuntimeException e) {
      throw new BasaltException("Tag file " + fileName + " is corrupt: " + e.getMessage(), e);
    }
  }

  @Nullable
  private static LocalDateTime createTime(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isTextual()) {
      return parseIso(node.asText(), CREATE_TIME, LocalDateTime::parse);
    }
    if (!node.isArray() || node.size() < 5 || node.size() > 7) {
      throw new IllegalArgumentException(
          "'" + CREATE_TIME + "' must be [year, month, day, hour, minute(, second(, nanos))]");
    }
    return LocalDateTime.of(
        node.get(0).asInt(),
        node.get(1).asInt(),
        node.get(2).asInt(),
        node.get(3).asInt(),
        node.get(4).asInt(),
        node.size() > 5 ? node.get(5).asInt() : 0,
        node.size() > 6 ? node.get(6).asInt() : 0);
  }

  @Nullable
  private static Duration timeRetained(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isTextual()) {
      return parseIso(node.asText(), TIME_RETAINED, Duration::parse);
    }
    if (!node.isNumber()) {
      throw new IllegalArgumentException("'" + TIME_RETAINED + "' must be a number of seconds");
    }
    BigDecimal seconds = node.decimalValue();
    long whole = seconds.longValue();
    int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
    return Duration.ofSeconds(whole, nanos);
  }

  private interface IsoParser<T> {
    T parse(String text);
  }

  private static <T> T parseIso(String text, String field, IsoParser<T> parser) {
    try {
      return parser.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'" + field + "' = '" + text + "' is no ISO-8601 value", e);
    }
  }
}

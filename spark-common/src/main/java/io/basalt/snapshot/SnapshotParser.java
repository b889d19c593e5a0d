package io.basalt.snapshot;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.basalt.BasaltException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Reads and writes snapshot JSON. Writes exactly Paimon 1.3's field set and order (format-notes.md
 * section 3), with {@code changelogManifestList} as an explicit null; reads ignore unknown fields
 * and treat missing optional ones as null.
 */
public final class SnapshotParser {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SnapshotParser() {}

  /** The JSON text of {@code snapshot}. */
  public static String toJson(Snapshot snapshot) {
    return toJson(snapshot, json -> {});
  }

  /** Writes more fields after a snapshot's own ones (the tag fields). */
  interface ExtraFields {
    void write(JsonGenerator json) throws IOException;
  }

  /** The JSON text of {@code snapshot} followed by {@code extra} fields. */
  static String toJson(Snapshot snapshot, ExtraFields extra) {
    try {
      StringWriter writer = new StringWriter();
      try (JsonGenerator json = MAPPER.getFactory().createGenerator(writer)) {
        json.useDefaultPrettyPrinter();
        json.writeStartObject();
        json.writeNumberField("version", snapshot.version());
        json.writeNumberField("id", snapshot.id());
        json.writeNumberField("schemaId", snapshot.schemaId());
        json.writeStringField("baseManifestList", snapshot.baseManifestList());
        writeOptional(json, "baseManifestListSize", snapshot.baseManifestListSize());
        json.writeStringField("deltaManifestList", snapshot.deltaManifestList());
        writeOptional(json, "deltaManifestListSize", snapshot.deltaManifestListSize());
        json.writeStringField("changelogManifestList", snapshot.changelogManifestList());
        writeOptional(json, "changelogManifestListSize", snapshot.changelogManifestListSize());
        if (snapshot.indexManifest() != null) {
          json.writeStringField("indexManifest", snapshot.indexManifest());
        }
        json.writeStringField("commitUser", snapshot.commitUser());
        json.writeNumberField("commitIdentifier", snapshot.commitIdentifier());
        json.writeStringField("commitKind", snapshot.commitKind().name());
        json.writeNumberField("timeMillis", snapshot.timeMillis());
        if (snapshot.logOffsets() != null) {
          json.writeObjectFieldStart("logOffsets");
          for (Map.Entry<Integer, Long> e : snapshot.logOffsets().entrySet()) {
            json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
          }
          json.writeEndObject();
        }
        writeOptional(json, "totalRecordCount", snapshot.totalRecordCount());
        writeOptional(json, "deltaRecordCount", snapshot.deltaRecordCount());
        writeOptional(json, "changelogRecordCount", snapshot.changelogRecordCount());
        writeOptional(json, "watermark", snapshot.watermark());
        if (snapshot.statistics() != null) {
          json.writeStringField("statistics", snapshot.statistics());
        }
        if (snapshot.properties() != null && !snapshot.properties().isEmpty()) {
          json.writeObjectFieldStart("properties");
          for (Map.Entry<String, String> e : snapshot.properties().entrySet()) {
            json.writeStringField(e.getKey(), e.getValue());
          }
          json.writeEndObject();
        }
        writeOptional(json, "nextRowId", snapshot.nextRowId());
        extra.write(json);
        json.writeEndObject();
      }
      return writer.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to serialize snapshot " + snapshot.id(), e);
    }
  }

  private static void writeOptional(JsonGenerator json, String name, @Nullable Long value)
      throws IOException {
    if (value != null) {
      json.writeNumberField(name, value);
    }
  }

  /**
   * Parses snapshot JSON.
   *
   * @param fileName named in errors
   * @throws BasaltException when the text is not a valid snapshot or its version is too new
   */
  public static Snapshot fromJson(String text, String fileName) {
    return fromObject(readObject(text, fileName), fileName);
  }

  /** Parses {@code text} as a JSON object, failing as a corrupt snapshot file otherwise. */
  static ObjectNode readObject(String text, String fileName) {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (IOException e) {
      throw corrupt(fileName, e.getMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw corrupt(fileName, "not a JSON object", null);
    }
    return (ObjectNode) node;
  }

  /** The snapshot of a parsed snapshot (or tag) JSON object. */
  static Snapshot fromObject(ObjectNode node, String fileName) {
    try {
      return parse(node, fileName);
    } catch (RuntimeException e) {
      throw corrupt(fileName, e.getMessage(), e);
    }
  }

  /** A corrupt snapshot or tag file: what is wrong, and how to get past it. */
  private static BasaltException corrupt(String fileName, String problem, Throwable cause) {
    return new BasaltException(
        String.format(
            "Snapshot file %s is corrupt: %s. Restore it from a backup; older snapshots stay"
                + " readable with VERSION AS OF <id> (CALL sys.rollback moves the table back to"
                + " one).",
            fileName, problem),
        cause);
  }

  private static Snapshot parse(ObjectNode node, String fileName) {
    int version = node.has("version") ? node.get("version").asInt() : 1;
    if (version > Snapshot.CURRENT_VERSION) {
      throw new BasaltException(
          String.format(
              "Snapshot file %s was written by a newer version (format %s, max supported %s)",
              fileName, version, Snapshot.CURRENT_VERSION));
    }
    return new Snapshot(
        version,
        required(node, "id").asLong(),
        required(node, "schemaId").asLong(),
        required(node, "baseManifestList").asText(),
        optionalLong(node, "baseManifestListSize"),
        required(node, "deltaManifestList").asText(),
        optionalLong(node, "deltaManifestListSize"),
        optionalText(node, "changelogManifestList"),
        optionalLong(node, "changelogManifestListSize"),
        optionalText(node, "indexManifest"),
        required(node, "commitUser").asText(),
        required(node, "commitIdentifier").asLong(),
        CommitKind.valueOf(required(node, "commitKind").asText()),
        required(node, "timeMillis").asLong(),
        logOffsets(node.get("logOffsets")),
        optionalLong(node, "totalRecordCount"),
        optionalLong(node, "deltaRecordCount"),
        optionalLong(node, "changelogRecordCount"),
        optionalLong(node, "watermark"),
        optionalText(node, "statistics"),
        properties(node.get("properties")),
        optionalLong(node, "nextRowId"));
  }

  private static JsonNode required(ObjectNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return value;
  }

  @Nullable
  private static Long optionalLong(ObjectNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asLong();
  }

  @Nullable
  private static String optionalText(ObjectNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  @Nullable
  private static Map<Integer, Long> logOffsets(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    Map<Integer, Long> offsets = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      offsets.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
    }
    return offsets;
  }

  @Nullable
  private static Map<String, String> properties(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    Map<String, String> properties = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      properties.put(e.getKey(), e.getValue().asText());
    }
    return properties;
  }
}

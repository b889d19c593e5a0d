package io.basalt.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.BasaltException;
import io.basalt.options.BlobOptions;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads and writes schema files ({@code schema/schema-<id>}) in the JSON layout of format-notes.md
 * section 2.
 *
 * <p>The writer emits the fields in Paimon's order ({@code version, id, fields, highestFieldId,
 * partitionKeys, primaryKeys, options, comment, timeMillis}), omitting {@code comment} when it is
 * null and writing options in key order. The reader ignores unknown fields, treats a missing {@code
 * version} as 1 and a missing {@code timeMillis} as 0, fills in the defaults older versions implied
 * ({@code bucket} = 1 for version 1, {@code file.format} = orc for versions up to 2) and rejects
 * versions newer than {@link TableSchema#CURRENT_VERSION}. Both directions are thread-safe.
 */
public final class SchemaParser {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private SchemaParser() {}

  /**
   * The columns {@code blob-field} names: Paimon records their binary values with its BLOB type
   * ({@code BLOB}, {@code ARRAY<BLOB>}, {@code MAP<K, BLOB>}), which Basalt reads as BINARY.
   */
  private static Set<String> blobFields(Map<String, String> options) {
    String value = options.get(BlobOptions.BLOB_FIELD.key());
    if (value == null || value.isBlank()) {
      return Set.of();
    }
    Set<String> names = new HashSet<>();
    for (String name : value.split(",")) {
      names.add(name.trim());
    }
    return names;
  }

  /** The JSON text of {@code schema}, pretty-printed like Paimon's writer. */
  public static String toJson(TableSchema schema) {
    StringWriter out = new StringWriter();
    try (JsonGenerator gen = FACTORY.createGenerator(out)) {
      gen.useDefaultPrettyPrinter();
      gen.writeStartObject();
      gen.writeNumberField("version", schema.version());
      gen.writeNumberField("id", schema.id());
      gen.writeArrayFieldStart("fields");
      Set<String> blobFields = blobFields(schema.options());
      for (DataField field : schema.fields()) {
        TypeJson.writeField(
            gen,
            field.id(),
            field.name(),
            field.type(),
            field.nullable(),
            field.description(),
            field.timestampPrecision(),
            field.defaultValue(),
            blobFields.contains(field.name()));
      }
      gen.writeEndArray();
      gen.writeNumberField("highestFieldId", schema.highestFieldId());
      writeStrings(gen, "partitionKeys", schema.partitionKeys());
      writeStrings(gen, "primaryKeys", schema.primaryKeys());
      gen.writeObjectFieldStart("options");
      for (Map.Entry<String, String> option : new TreeMap<>(schema.options()).entrySet()) {
        gen.writeStringField(option.getKey(), option.getValue());
      }
      gen.writeEndObject();
      if (schema.comment() != null) {
        gen.writeStringField("comment", schema.comment());
      }
      gen.writeNumberField("timeMillis", schema.timeMillis());
      gen.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write schema " + schema.id() + " as JSON", e);
    }
    return out.toString();
  }

  /**
   * Parses the schema JSON {@code json}; {@code fileNameForErrors} names the source in error
   * messages.
   *
   * @throws BasaltException when the JSON is corrupt, written by a newer format version, or uses a
   *     type Basalt cannot read; the message names the file
   */
  public static TableSchema parse(String json, String fileNameForErrors) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new BasaltException(
          "Schema file " + fileNameForErrors + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new BasaltException(
          "Schema file " + fileNameForErrors + " does not hold a JSON object");
    }
    int version = root.has("version") ? root.get("version").asInt() : 1;
    if (version > TableSchema.CURRENT_VERSION) {
      throw new BasaltException(
          String.format(
              "Schema file %s was written by a newer version (format %d, max supported %d)",
              fileNameForErrors, version, TableSchema.CURRENT_VERSION));
    }
    try {
      return read(root, version);
    } catch (IllegalArgumentException e) {
      throw new BasaltException(
          "Cannot read schema file " + fileNameForErrors + ": " + e.getMessage(), e);
    }
  }

  private static TableSchema read(JsonNode root, int version) {
    List<DataField> fields = new ArrayList<>();
    for (JsonNode field : required(root, "fields")) {
      fields.add(readField(field));
    }
    Map<String, String> options = new HashMap<>();
    root.path("options")
        .fields()
        .forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
    if (version <= 1) {
      options.putIfAbsent("bucket", "1");
    }
    if (version <= 2) {
      options.putIfAbsent("file.format", "orc");
    }
    JsonNode comment = root.get("comment");
    return new TableSchema(
        version,
        required(root, "id").asLong(),
        fields,
        required(root, "highestFieldId").asInt(),
        strings(root.get("partitionKeys")),
        strings(root.get("primaryKeys")),
        options,
        comment == null || comment.isNull() ? null : comment.asText(),
        root.path("timeMillis").asLong(0));
  }

  private static DataField readField(JsonNode field) {
    String name = field.path("name").asText(null);
    if (name == null || !field.path("id").canConvertToInt()) {
      throw new IllegalArgumentException("Field without a name or an id: " + field);
    }
    TypeJson.Parsed type = TypeJson.parse(field.get("type"), name);
    JsonNode description = field.get("description");
    return new DataField(
        field.get("id").asInt(),
        name,
        type.type(),
        type.nullable(),
        description == null || description.isNull() ? null : description.asText(),
        type.timestampPrecision(),
        field.path("defaultValue").isTextual() ? field.get("defaultValue").asText() : null);
  }

  private static JsonNode required(JsonNode root, String name) {
    JsonNode node = root.get(name);
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("Missing required field '" + name + "'");
    }
    return node;
  }

  private static List<String> strings(JsonNode array) {
    List<String> result = new ArrayList<>();
    if (array != null) {
      array.forEach(node -> result.add(node.asText()));
    }
    return result;
  }

  private static void writeStrings(JsonGenerator gen, String name, List<String> values)
      throws IOException {
    gen.writeArrayFieldStart(name);
    for (String value : values) {
      gen.writeString(value);
    }
    gen.writeEndArray();
  }
}

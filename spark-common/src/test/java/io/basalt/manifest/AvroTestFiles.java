package io.basalt.manifest;

import io.basalt.avro.AvroFields;
import io.basalt.data.BinaryRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/** Hand-built Avro files for reader tests: other versions, evolved and broken schemas. */
final class AvroTestFiles {
  private AvroTestFiles() {}

  static byte[] write(Schema schema, List<GenericRecord> rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
      writer.create(schema, out);
      for (GenericRecord row : rows) {
        writer.append(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] empty(Schema schema) {
    return write(schema, List.of());
  }

  /** One row holding only {@code _VERSION}. */
  static byte[] withVersion(int version) {
    Schema schema =
        AvroSchemas.record(
            "record", List.of(AvroSchemas.required("_VERSION", AvroSchemas.intType())));
    GenericRecord row = new GenericData.Record(schema);
    row.put("_VERSION", version);
    return write(schema, List.of(row));
  }

  /** A full, valid entry record in the codec's own schema. */
  static GenericRecord entryRecord(int kind, BinaryRow partition, DataFileMeta file) {
    Schema schema = ManifestEntryCodec.SCHEMA;
    GenericRecord row = new GenericData.Record(schema);
    row.put("_VERSION", 2);
    row.put("_KIND", kind);
    row.put("_PARTITION", AvroFields.binaryRowBytes(partition));
    row.put("_BUCKET", 0);
    row.put("_TOTAL_BUCKETS", 1);
    row.put("_FILE", DataFileMetaAvro.toRecord(file, schema.getField("_FILE").schema()));
    return row;
  }

  static byte[] manifestWithKind(int kind, DataFileMeta file) {
    return write(ManifestEntryCodec.SCHEMA, List.of(entryRecord(kind, BinaryRow.EMPTY, file)));
  }

  /**
   * A manifest whose {@code _FILE} lacks the three newest optional fields and has an unknown extra
   * field, with an unknown top-level field too: what an older or newer writer might emit.
   */
  static byte[] evolvedManifest(DataFileMeta file, BinaryRow partition) {
    Set<String> dropped = Set.of("_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS");
    Schema fileSchema =
        reshapedFileSchema(
            dropped, new Schema.Field("_FUTURE", AvroSchemas.stringType(), null, "x"));
    Schema schema = topLevel(fileSchema, new Schema.Field("_EXTRA_TOP", AvroSchemas.longType()));
    GenericRecord row = copy(entryRecord(0, partition, file), schema);
    ((GenericRecord) row.get("_FILE")).put("_FUTURE", "from the future");
    row.put("_EXTRA_TOP", 42L);
    return write(schema, List.of(row));
  }

  /** A manifest whose {@code _FILE} has no {@code _FILE_SIZE}. */
  static byte[] manifestWithoutFileSize() {
    Schema schema = topLevel(reshapedFileSchema(Set.of("_FILE_SIZE"), null), null);
    DataFileMeta file = ManifestEntryCodecTest.fileWithNulls("f");
    return write(schema, List.of(copy(entryRecord(0, BinaryRow.EMPTY, file), schema)));
  }

  private static Schema reshapedFileSchema(Set<String> dropped, Schema.Field extra) {
    Schema full = ManifestEntryCodec.SCHEMA.getField("_FILE").schema();
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : full.getFields()) {
      if (!dropped.contains(field.name())) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    if (extra != null) {
      fields.add(extra);
    }
    return AvroSchemas.record(full.getName(), fields);
  }

  private static Schema topLevel(Schema fileSchema, Schema.Field extra) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : ManifestEntryCodec.SCHEMA.getFields()) {
      Schema type = field.name().equals("_FILE") ? fileSchema : field.schema();
      fields.add(new Schema.Field(field, type));
    }
    if (extra != null) {
      fields.add(extra);
    }
    return AvroSchemas.record("record", fields);
  }

  /** Copies the fields {@code target} shares with {@code source}, recursing into records. */
  private static GenericRecord copy(GenericRecord source, Schema target) {
    GenericRecord out = new GenericData.Record(target);
    for (Schema.Field field : target.getFields()) {
      if (source.getSchema().getField(field.name()) == null) {
        continue;
      }
      Object value = source.get(field.name());
      if (value instanceof GenericRecord nested && field.schema().getType() == Schema.Type.RECORD) {
        value = copy(nested, field.schema());
      }
      out.put(field.name(), value);
    }
    return out;
  }
}

package io.basalt.manifest;

import static io.basalt.manifest.AvroSchemas.bytesType;
import static io.basalt.manifest.AvroSchemas.intType;
import static io.basalt.manifest.AvroSchemas.longType;
import static io.basalt.manifest.AvroSchemas.optional;
import static io.basalt.manifest.AvroSchemas.required;
import static io.basalt.manifest.AvroSchemas.stringArray;
import static io.basalt.manifest.AvroSchemas.stringType;

import io.basalt.avro.AvroFields;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** The {@code _FILE} record of a manifest entry: a {@link DataFileMeta} (format-notes.md 4.3). */
final class DataFileMetaAvro {
  static final String FILE_NAME = "_FILE_NAME";
  static final String FILE_SIZE = "_FILE_SIZE";
  static final String ROW_COUNT = "_ROW_COUNT";
  static final String MIN_KEY = "_MIN_KEY";
  static final String MAX_KEY = "_MAX_KEY";
  static final String KEY_STATS = "_KEY_STATS";
  static final String VALUE_STATS = "_VALUE_STATS";
  static final String MIN_SEQUENCE_NUMBER = "_MIN_SEQUENCE_NUMBER";
  static final String MAX_SEQUENCE_NUMBER = "_MAX_SEQUENCE_NUMBER";
  static final String SCHEMA_ID = "_SCHEMA_ID";
  static final String LEVEL = "_LEVEL";
  static final String EXTRA_FILES = "_EXTRA_FILES";
  static final String CREATION_TIME = "_CREATION_TIME";
  static final String DELETE_ROW_COUNT = "_DELETE_ROW_COUNT";
  static final String EMBEDDED_FILE_INDEX = "_EMBEDDED_FILE_INDEX";
  static final String FILE_SOURCE = "_FILE_SOURCE";
  static final String VALUE_STATS_COLS = "_VALUE_STATS_COLS";
  static final String EXTERNAL_PATH = "_EXTERNAL_PATH";
  static final String FIRST_ROW_ID = "_FIRST_ROW_ID";
  static final String WRITE_COLS = "_WRITE_COLS";

  private DataFileMetaAvro() {}

  /** The record schema, named {@code recordName}; its stats records are named after it. */
  static Schema schema(String recordName) {
    return AvroSchemas.record(
        recordName,
        List.of(
            required(FILE_NAME, stringType()),
            required(FILE_SIZE, longType()),
            required(ROW_COUNT, longType()),
            required(MIN_KEY, bytesType()),
            required(MAX_KEY, bytesType()),
            required(KEY_STATS, statsSchema(recordName, KEY_STATS)),
            required(VALUE_STATS, statsSchema(recordName, VALUE_STATS)),
            required(MIN_SEQUENCE_NUMBER, longType()),
            required(MAX_SEQUENCE_NUMBER, longType()),
            required(SCHEMA_ID, longType()),
            required(LEVEL, intType()),
            required(EXTRA_FILES, stringArray()),
            optional(CREATION_TIME, AvroSchemas.timestampMillis()),
            optional(DELETE_ROW_COUNT, longType()),
            optional(EMBEDDED_FILE_INDEX, bytesType()),
            optional(FILE_SOURCE, intType()),
            optional(VALUE_STATS_COLS, stringArray()),
            optional(EXTERNAL_PATH, stringType()),
            optional(FIRST_ROW_ID, longType()),
            optional(WRITE_COLS, stringArray())));
  }

  private static Schema statsSchema(String recordName, String field) {
    return SimpleStatsAvro.schema(AvroSchemas.nestedName(recordName, field));
  }

  static GenericRecord toRecord(DataFileMeta file, Schema schema) {
    GenericRecord record = new GenericData.Record(schema);
    record.put(FILE_NAME, file.fileName());
    record.put(FILE_SIZE, file.fileSize());
    record.put(ROW_COUNT, file.rowCount());
    record.put(MIN_KEY, AvroFields.binaryRowBytes(file.minKey()));
    record.put(MAX_KEY, AvroFields.binaryRowBytes(file.maxKey()));
    record.put(KEY_STATS, statsRecord(file.keyStats(), schema, KEY_STATS));
    record.put(VALUE_STATS, statsRecord(file.valueStats(), schema, VALUE_STATS));
    record.put(MIN_SEQUENCE_NUMBER, file.minSequenceNumber());
    record.put(MAX_SEQUENCE_NUMBER, file.maxSequenceNumber());
    record.put(SCHEMA_ID, file.schemaId());
    record.put(LEVEL, file.level());
    record.put(EXTRA_FILES, file.extraFiles());
    record.put(CREATION_TIME, file.creationTimeMillis());
    record.put(DELETE_ROW_COUNT, file.deleteRowCount());
    byte[] index = file.embeddedIndex();
    record.put(EMBEDDED_FILE_INDEX, index == null ? null : ByteBuffer.wrap(index));
    record.put(FILE_SOURCE, file.fileSource());
    record.put(VALUE_STATS_COLS, file.valueStatsCols());
    record.put(EXTERNAL_PATH, file.externalPath());
    record.put(FIRST_ROW_ID, file.firstRowId());
    record.put(WRITE_COLS, file.writeCols());
    return record;
  }

  private static GenericRecord statsRecord(SimpleStats stats, Schema fileSchema, String field) {
    return SimpleStatsAvro.toRecord(stats, fileSchema.getField(field).schema());
  }

  static DataFileMeta fromRecord(GenericRecord record) {
    return new DataFileMeta(
        AvroFields.requiredString(record, FILE_NAME),
        AvroFields.requiredLong(record, FILE_SIZE),
        AvroFields.requiredLong(record, ROW_COUNT),
        AvroFields.binaryRow(record, MIN_KEY),
        AvroFields.binaryRow(record, MAX_KEY),
        SimpleStatsAvro.fromRecord(AvroFields.requiredRecord(record, KEY_STATS)),
        SimpleStatsAvro.fromRecord(AvroFields.requiredRecord(record, VALUE_STATS)),
        AvroFields.requiredLong(record, MIN_SEQUENCE_NUMBER),
        AvroFields.requiredLong(record, MAX_SEQUENCE_NUMBER),
        AvroFields.requiredLong(record, SCHEMA_ID),
        AvroFields.requiredInt(record, LEVEL),
        AvroFields.requiredStrings(record, EXTRA_FILES),
        AvroFields.optionalLong(record, CREATION_TIME),
        AvroFields.optionalLong(record, DELETE_ROW_COUNT),
        AvroFields.optionalBytes(record, EMBEDDED_FILE_INDEX),
        AvroFields.optionalInt(record, FILE_SOURCE),
        AvroFields.optionalStrings(record, VALUE_STATS_COLS),
        AvroFields.optionalString(record, EXTERNAL_PATH),
        AvroFields.optionalLong(record, FIRST_ROW_ID),
        AvroFields.optionalStrings(record, WRITE_COLS));
  }
}

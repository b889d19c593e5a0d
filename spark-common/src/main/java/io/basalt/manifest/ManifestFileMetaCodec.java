package io.basalt.manifest;

import static io.basalt.manifest.AvroSchemas.intType;
import static io.basalt.manifest.AvroSchemas.longType;
import static io.basalt.manifest.AvroSchemas.optional;
import static io.basalt.manifest.AvroSchemas.required;
import static io.basalt.manifest.AvroSchemas.stringType;

import io.basalt.avro.AvroFields;
import io.basalt.avro.AvroRowReader;
import io.basalt.avro.AvroRowWriter;
import io.basalt.avro.RowWriter;
import io.basalt.utils.CloseableIterator;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads and writes manifest lists: Avro container files of {@link ManifestFileMeta} rows at {@code
 * _VERSION} 2, compressed with zstandard (format-notes.md section 4.2). A list with no rows is
 * valid.
 *
 * <p>Reading streams row by row and resolves fields by name against the file's own schema.
 */
public final class ManifestFileMetaCodec {
  /** The {@code _VERSION} of manifest list rows. */
  public static final int VERSION = 2;

  static final String FILE_NAME = "_FILE_NAME";
  static final String FILE_SIZE = "_FILE_SIZE";
  static final String NUM_ADDED_FILES = "_NUM_ADDED_FILES";
  static final String NUM_DELETED_FILES = "_NUM_DELETED_FILES";
  static final String PARTITION_STATS = "_PARTITION_STATS";
  static final String SCHEMA_ID = "_SCHEMA_ID";
  static final String MIN_BUCKET = "_MIN_BUCKET";
  static final String MAX_BUCKET = "_MAX_BUCKET";
  static final String MIN_LEVEL = "_MIN_LEVEL";
  static final String MAX_LEVEL = "_MAX_LEVEL";

  /** The Avro schema this codec writes. */
  static final Schema SCHEMA =
      AvroSchemas.record(
          AvroSchemas.TOP_LEVEL,
          List.of(
              required(AvroRowReader.VERSION, intType()),
              required(FILE_NAME, stringType()),
              required(FILE_SIZE, longType()),
              required(NUM_ADDED_FILES, longType()),
              required(NUM_DELETED_FILES, longType()),
              required(
                  PARTITION_STATS,
                  SimpleStatsAvro.schema(
                      AvroSchemas.nestedName(AvroSchemas.TOP_LEVEL, PARTITION_STATS))),
              required(SCHEMA_ID, longType()),
              optional(MIN_BUCKET, intType()),
              optional(MAX_BUCKET, intType()),
              optional(MIN_LEVEL, intType()),
              optional(MAX_LEVEL, intType())));

  /** Manifest file summaries as metadata rows, in either manifest format. */
  public static final MetadataCodec<ManifestFileMeta> CODEC =
      new MetadataCodec<>(
          SCHEMA,
          VERSION,
          ManifestFileMetaCodec::toRecord,
          ManifestFileMetaCodec::fromRecord,
          "manifest list");

  private ManifestFileMetaCodec() {}

  /** A writer of a manifest list over {@code out}; closing it closes {@code out}. */
  public static RowWriter<ManifestFileMeta> writer(OutputStream out) {
    return writer(out, "<stream>");
  }

  /**
   * A writer of manifest list {@code fileName} over {@code out}; the name only appears in errors.
   * Closing the writer closes {@code out}.
   *
   * @throws java.io.UncheckedIOException if the file header cannot be written
   */
  public static RowWriter<ManifestFileMeta> writer(OutputStream out, String fileName) {
    return new AvroRowWriter<>(
        out, SCHEMA, ManifestFileMetaCodec::toRecord, "manifest list " + fileName);
  }

  /**
   * Streams the rows of manifest list {@code fileName} from {@code in}, which the iterator closes.
   *
   * @throws io.basalt.BasaltException (also from the iterator's methods) if the file is corrupt,
   *     truncated, not a manifest list, or of another {@code _VERSION}; the message names the file
   */
  public static CloseableIterator<ManifestFileMeta> read(InputStream in, String fileName) {
    return AvroRowReader.open(
        in, VERSION, ManifestFileMetaCodec::fromRecord, "manifest list " + fileName);
  }

  private static GenericRecord toRecord(ManifestFileMeta meta) {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put(AvroRowReader.VERSION, VERSION);
    record.put(FILE_NAME, meta.fileName());
    record.put(FILE_SIZE, meta.fileSize());
    record.put(NUM_ADDED_FILES, meta.numAddedFiles());
    record.put(NUM_DELETED_FILES, meta.numDeletedFiles());
    Schema statsSchema = SCHEMA.getField(PARTITION_STATS).schema();
    record.put(PARTITION_STATS, SimpleStatsAvro.toRecord(meta.partitionStats(), statsSchema));
    record.put(SCHEMA_ID, meta.schemaId());
    record.put(MIN_BUCKET, meta.minBucket());
    record.put(MAX_BUCKET, meta.maxBucket());
    record.put(MIN_LEVEL, meta.minLevel());
    record.put(MAX_LEVEL, meta.maxLevel());
    return record;
  }

  private static ManifestFileMeta fromRecord(GenericRecord record) {
    return new ManifestFileMeta(
        AvroFields.requiredString(record, FILE_NAME),
        AvroFields.requiredLong(record, FILE_SIZE),
        AvroFields.requiredLong(record, NUM_ADDED_FILES),
        AvroFields.requiredLong(record, NUM_DELETED_FILES),
        SimpleStatsAvro.fromRecord(AvroFields.requiredRecord(record, PARTITION_STATS)),
        AvroFields.requiredLong(record, SCHEMA_ID),
        AvroFields.optionalInt(record, MIN_BUCKET),
        AvroFields.optionalInt(record, MAX_BUCKET),
        AvroFields.optionalInt(record, MIN_LEVEL),
        AvroFields.optionalInt(record, MAX_LEVEL));
  }
}

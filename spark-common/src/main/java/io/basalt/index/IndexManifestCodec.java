package io.basalt.index;

import io.basalt.avro.AvroFields;
import io.basalt.avro.AvroRowReader;
import io.basalt.avro.AvroRowWriter;
import io.basalt.avro.RowWriter;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.MetadataCodec;
import io.basalt.utils.CloseableIterator;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.avro.Schema;
import org.apache.avro.Schema.Field;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads and writes index manifests: Avro container files of {@link IndexManifestEntry} rows at
 * {@code _VERSION} 1, compressed with zstandard (format-notes.md section 4.4).
 *
 * <p>Reading streams row by row and resolves fields by name against the file's own schema, so files
 * with extra fields, or without optional ones, read. Returned entries are fresh immutable values.
 */
public final class IndexManifestCodec {
  /** The {@code _VERSION} of index manifest rows. */
  public static final int VERSION = 1;

  static final String NAMESPACE = "org.apache.paimon.avro.generated";
  static final String TOP_LEVEL = "record";
  static final String VERSION_FIELD = AvroRowReader.VERSION;
  static final String KIND = "_KIND";
  static final String PARTITION = "_PARTITION";
  static final String BUCKET = "_BUCKET";
  static final String INDEX_TYPE = "_INDEX_TYPE";
  static final String FILE_NAME = "_FILE_NAME";
  static final String FILE_SIZE = "_FILE_SIZE";
  static final String ROW_COUNT = "_ROW_COUNT";
  static final String DV_RANGES = "_DELETIONS_VECTORS_RANGES";
  static final String EXTERNAL_PATH = "_EXTERNAL_PATH";
  static final String DV_FILE = "f0";
  static final String DV_OFFSET = "f1";
  static final String DV_LENGTH = "f2";
  static final String DV_CARDINALITY = "_CARDINALITY";

  /** The record of one deletion vector range, named after its field as Paimon names it. */
  static final Schema RANGE_SCHEMA =
      Schema.createRecord(
          TOP_LEVEL + "_" + DV_RANGES,
          null,
          NAMESPACE,
          false,
          List.of(
              required(DV_FILE, Schema.Type.STRING),
              required(DV_OFFSET, Schema.Type.INT),
              required(DV_LENGTH, Schema.Type.INT),
              optional(DV_CARDINALITY, Schema.create(Schema.Type.LONG))));

  /** The Avro schema this codec writes. */
  static final Schema SCHEMA =
      Schema.createRecord(
          TOP_LEVEL,
          null,
          NAMESPACE,
          false,
          List.of(
              required(VERSION_FIELD, Schema.Type.INT),
              required(KIND, Schema.Type.INT),
              required(PARTITION, Schema.Type.BYTES),
              required(BUCKET, Schema.Type.INT),
              required(INDEX_TYPE, Schema.Type.STRING),
              required(FILE_NAME, Schema.Type.STRING),
              required(FILE_SIZE, Schema.Type.LONG),
              required(ROW_COUNT, Schema.Type.LONG),
              optional(DV_RANGES, Schema.createArray(nullable(RANGE_SCHEMA))),
              optional(EXTERNAL_PATH, Schema.create(Schema.Type.STRING))));

  private static final Schema RANGES_ARRAY = SCHEMA.getField(DV_RANGES).schema().getTypes().get(1);

  /** Index manifest entries as metadata rows, in either manifest format. */
  public static final MetadataCodec<IndexManifestEntry> CODEC =
      new MetadataCodec<>(
          SCHEMA,
          VERSION,
          IndexManifestCodec::toRecord,
          IndexManifestCodec::fromRecord,
          "index manifest");

  private IndexManifestCodec() {}

  private static Field required(String name, Schema.Type type) {
    return new Field(name, Schema.create(type));
  }

  private static Field optional(String name, Schema type) {
    return new Field(name, nullable(type), null, Field.NULL_DEFAULT_VALUE);
  }

  /** {@code ["null", type]}, null first as Paimon's reader expects. */
  private static Schema nullable(Schema type) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
  }

  /**
   * A writer of index manifest {@code fileName} over {@code out}; the name only appears in errors.
   * Closing the writer closes {@code out}.
   *
   * @throws java.io.UncheckedIOException if the file header cannot be written
   */
  public static RowWriter<IndexManifestEntry> writer(OutputStream out, String fileName) {
    return new AvroRowWriter<>(
        out, SCHEMA, IndexManifestCodec::toRecord, "index manifest " + fileName);
  }

  /**
   * Streams the entries of index manifest {@code fileName} from {@code in}, which the iterator
   * closes.
   *
   * @throws io.basalt.BasaltException (also from the iterator's methods) if the file is corrupt,
   *     truncated, not an index manifest, or of another {@code _VERSION}; the message names the
   *     file
   */
  public static CloseableIterator<IndexManifestEntry> read(InputStream in, String fileName) {
    return AvroRowReader.open(
        in, VERSION, IndexManifestCodec::fromRecord, "index manifest " + fileName);
  }

  static GenericRecord toRecord(IndexManifestEntry entry) {
    IndexFileMeta file = entry.indexFile();
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put(VERSION_FIELD, VERSION);
    record.put(KIND, (int) entry.kind().value());
    record.put(PARTITION, AvroFields.binaryRowBytes(entry.partition()));
    record.put(BUCKET, entry.bucket());
    record.put(INDEX_TYPE, file.indexType());
    record.put(FILE_NAME, file.fileName());
    record.put(FILE_SIZE, file.fileSize());
    record.put(ROW_COUNT, file.rowCount());
    record.put(DV_RANGES, file.dvRanges() == null ? null : rangeRecords(file.dvRanges()));
    record.put(EXTERNAL_PATH, file.externalPath());
    return record;
  }

  private static GenericData.Array<GenericRecord> rangeRecords(
      Map<String, DeletionVectorMeta> ranges) {
    GenericData.Array<GenericRecord> array = new GenericData.Array<>(ranges.size(), RANGES_ARRAY);
    for (DeletionVectorMeta range : ranges.values()) {
      GenericRecord record = new GenericData.Record(RANGE_SCHEMA);
      record.put(DV_FILE, range.dataFileName());
      record.put(DV_OFFSET, range.offset());
      record.put(DV_LENGTH, range.length());
      record.put(DV_CARDINALITY, range.cardinality());
      array.add(record);
    }
    return array;
  }

  private static IndexManifestEntry fromRecord(GenericRecord record) {
    IndexFileMeta file =
        new IndexFileMeta(
            AvroFields.requiredString(record, INDEX_TYPE),
            AvroFields.requiredString(record, FILE_NAME),
            AvroFields.requiredLong(record, FILE_SIZE),
            AvroFields.requiredLong(record, ROW_COUNT),
            ranges(record),
            AvroFields.optionalString(record, EXTERNAL_PATH));
    return new IndexManifestEntry(
        FileKind.fromValue(AvroFields.requiredInt(record, KIND)),
        AvroFields.binaryRow(record, PARTITION),
        AvroFields.requiredInt(record, BUCKET),
        file);
  }

  @Nullable
  private static Map<String, DeletionVectorMeta> ranges(GenericRecord record) {
    List<GenericRecord> items = AvroFields.optionalNullableRecords(record, DV_RANGES);
    if (items == null) {
      return null;
    }
    Map<String, DeletionVectorMeta> ranges = new LinkedHashMap<>();
    List<String> duplicates = new ArrayList<>();
    for (GenericRecord range : items) {
      if (range == null) {
        continue; // the element type is nullable, but Paimon never writes a null range
      }
      DeletionVectorMeta meta =
          new DeletionVectorMeta(
              AvroFields.requiredString(range, DV_FILE),
              AvroFields.requiredInt(range, DV_OFFSET),
              AvroFields.requiredInt(range, DV_LENGTH),
              AvroFields.optionalLong(range, DV_CARDINALITY));
      if (ranges.put(meta.dataFileName(), meta) != null) {
        duplicates.add(meta.dataFileName());
      }
    }
    if (!duplicates.isEmpty()) {
      throw new IllegalArgumentException(
          "field " + DV_RANGES + " lists data files more than once: " + duplicates);
    }
    return ranges;
  }
}

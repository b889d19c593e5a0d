package io.basalt.manifest;

import static io.basalt.manifest.AvroSchemas.bytesType;
import static io.basalt.manifest.AvroSchemas.intType;
import static io.basalt.manifest.AvroSchemas.required;

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
 * Reads and writes data manifest files: Avro container files of {@link ManifestEntry} rows at
 * {@code _VERSION} 2, compressed with zstandard (format-notes.md section 4.3).
 *
 * <p>Reading streams row by row and resolves fields by name against the file's own schema, so files
 * written by Paimon versions with extra or missing optional fields read. Returned entries are fresh
 * immutable values.
 */
public final class ManifestEntryCodec {
  /** The {@code _VERSION} of manifest entry rows. */
  public static final int VERSION = 2;

  static final String KIND = "_KIND";
  static final String PARTITION = "_PARTITION";
  static final String BUCKET = "_BUCKET";
  static final String TOTAL_BUCKETS = "_TOTAL_BUCKETS";
  static final String FILE = "_FILE";

  /** The Avro schema this codec writes. */
  static final Schema SCHEMA =
      AvroSchemas.record(
          AvroSchemas.TOP_LEVEL,
          List.of(
              required(AvroRowReader.VERSION, intType()),
              required(KIND, intType()),
              required(PARTITION, bytesType()),
              required(BUCKET, intType()),
              required(TOTAL_BUCKETS, intType()),
              required(
                  FILE,
                  DataFileMetaAvro.schema(AvroSchemas.nestedName(AvroSchemas.TOP_LEVEL, FILE)))));

  /** Manifest entries as metadata rows, in either manifest format. */
  public static final MetadataCodec<ManifestEntry> CODEC =
      new MetadataCodec<>(
          SCHEMA,
          VERSION,
          ManifestEntryCodec::toRecord,
          ManifestEntryCodec::fromRecord,
          "manifest");

  private ManifestEntryCodec() {}

  /** A writer of a manifest over {@code out}; closing it closes {@code out}. */
  public static RowWriter<ManifestEntry> writer(OutputStream out) {
    return writer(out, "<stream>");
  }

  /**
   * A writer of manifest {@code fileName} over {@code out}; the name only appears in errors.
   * Closing the writer closes {@code out}.
   *
   * @throws java.io.UncheckedIOException if the file header cannot be written
   */
  public static RowWriter<ManifestEntry> writer(OutputStream out, String fileName) {
    return new AvroRowWriter<>(out, SCHEMA, ManifestEntryCodec::toRecord, "manifest " + fileName);
  }

  /**
   * Streams the entries of manifest {@code fileName} from {@code in}, which the iterator closes.
   *
   * @throws io.basalt.BasaltException (also from the iterator's methods) if the file is corrupt,
   *     truncated, not a manifest, or of another {@code _VERSION}; the message names the file
   */
  public static CloseableIterator<ManifestEntry> read(InputStream in, String fileName) {
    return AvroRowReader.open(in, VERSION, ManifestEntryCodec::fromRecord, "manifest " + fileName);
  }

  private static GenericRecord toRecord(ManifestEntry entry) {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put(AvroRowReader.VERSION, VERSION);
    record.put(KIND, (int) entry.kind().value());
    record.put(PARTITION, AvroFields.binaryRowBytes(entry.partition()));
    record.put(BUCKET, entry.bucket());
    record.put(TOTAL_BUCKETS, entry.totalBuckets());
    record.put(FILE, DataFileMetaAvro.toRecord(entry.file(), SCHEMA.getField(FILE).schema()));
    return record;
  }

  private static ManifestEntry fromRecord(GenericRecord record) {
    return new ManifestEntry(
        FileKind.fromValue(AvroFields.requiredInt(record, KIND)),
        AvroFields.binaryRow(record, PARTITION),
        AvroFields.requiredInt(record, BUCKET),
        AvroFields.requiredInt(record, TOTAL_BUCKETS),
        DataFileMetaAvro.fromRecord(AvroFields.requiredRecord(record, FILE)));
  }
}

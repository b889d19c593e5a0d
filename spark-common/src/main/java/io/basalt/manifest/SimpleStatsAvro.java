package io.basalt.manifest;

import static io.basalt.manifest.AvroSchemas.bytesType;
import static io.basalt.manifest.AvroSchemas.longType;
import static io.basalt.manifest.AvroSchemas.nullable;
import static io.basalt.manifest.AvroSchemas.optional;
import static io.basalt.manifest.AvroSchemas.required;

import io.basalt.avro.AvroFields;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** The SimpleStats record (format-notes.md section 4.5), shared by manifests and manifest lists. */
final class SimpleStatsAvro {
  static final String MIN_VALUES = "_MIN_VALUES";
  static final String MAX_VALUES = "_MAX_VALUES";
  static final String NULL_COUNTS = "_NULL_COUNTS";

  private SimpleStatsAvro() {}

  /** The stats record schema, named {@code recordName}. */
  static Schema schema(String recordName) {
    return AvroSchemas.record(
        recordName,
        List.of(
            required(MIN_VALUES, bytesType()),
            required(MAX_VALUES, bytesType()),
            optional(NULL_COUNTS, Schema.createArray(nullable(longType())))));
  }

  static GenericRecord toRecord(SimpleStats stats, Schema schema) {
    GenericRecord record = new GenericData.Record(schema);
    record.put(MIN_VALUES, AvroFields.binaryRowBytes(stats.minValues()));
    record.put(MAX_VALUES, AvroFields.binaryRowBytes(stats.maxValues()));
    record.put(NULL_COUNTS, stats.nullCounts());
    return record;
  }

  static SimpleStats fromRecord(GenericRecord record) {
    return new SimpleStats(
        AvroFields.binaryRow(record, MIN_VALUES),
        AvroFields.binaryRow(record, MAX_VALUES),
        AvroFields.optionalNullableLongs(record, NULL_COUNTS));
  }
}

package io.basalt.manifest;

import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * How one kind of metadata row (manifest entry, manifest file summary, index manifest entry) maps
 * to a record of its Avro schema. The schema is the single definition of the row: Avro files store
 * it as is, Parquet files as the columns {@link ParquetMetadataFiles} derives from it.
 *
 * @param schema the record schema, whose first field is {@code _VERSION}
 * @param version the {@code _VERSION} every row carries
 * @param encoder a value to its record
 * @param decoder a record to its value; a runtime exception it throws is reported with the file
 * @param what the kind of file in messages, such as {@code "manifest"}
 */
public record MetadataCodec<T>(
    Schema schema,
    int version,
    Function<T, GenericRecord> encoder,
    Function<GenericRecord, T> decoder,
    String what) {}

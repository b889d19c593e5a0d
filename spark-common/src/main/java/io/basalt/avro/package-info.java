/**
 * The Avro plumbing shared by the metadata files that are Avro object container files: manifests
 * and manifest lists ({@link io.basalt.manifest}) and index manifests ({@link io.basalt.index}).
 *
 * <ul>
 *   <li>{@link io.basalt.avro.AvroRowWriter} streams rows into a container file compressed with
 *       zstandard, as Paimon writes them; it is a {@link io.basalt.avro.RowWriter}.
 *   <li>{@link io.basalt.avro.AvroRowReader} streams the rows back as {@code GenericRecord}s in the
 *       file's own schema, checks each row's {@code _VERSION}, detects a file cut short and names
 *       the file in every error.
 *   <li>{@link io.basalt.avro.AvroFields} reads fields of those records by name, so files with
 *       extra fields, or without optional ones, read.
 * </ul>
 *
 * <p>The schemas and the mapping of rows to values belong to the codecs of each file type.
 */
package io.basalt.avro;

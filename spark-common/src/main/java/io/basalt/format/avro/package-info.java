/**
 * Avro data files in Paimon's Avro layout (format-notes.md 4.6), written from and read into Spark
 * {@code InternalRow}s.
 *
 * <ul>
 *   <li>One Avro object container file; the top-level record is {@code
 *       org.apache.paimon.avro.generated.record}, nested records are named by their path. Nullable
 *       values are the union {@code ["null", T]}, null first; NOT NULL values are plain.
 *   <li>Decimals are bytes with logical type {@code decimal}; timestamps of precision up to 3 are
 *       millis, up to 6 micros ({@code timestamp-*} for TIMESTAMP_NTZ, {@code local-timestamp-*}
 *       for TIMESTAMP); maps with non-string keys are arrays of {@code {key, value}} records with
 *       logical type {@code map}.
 *   <li>Each field carries its Paimon id in the property {@code field-id} (Paimon ignores it);
 *       readers match by it, or by name in files without ids.
 *   <li>Compression is {@code file.compression} (zstd level 1 by default). Avro keeps no column
 *       statistics, so they are collected while writing ({@link io.basalt.format.StatsCollector}).
 * </ul>
 */
package io.basalt.format.avro;

/**
 * Manifest metadata and its Avro codecs, laid out as Apache Paimon 1.3 writes them.
 *
 * <h2>Container</h2>
 *
 * <p>Manifest files and manifest lists are Avro object container files compressed with the {@code
 * zstandard} codec: magic, metadata map with the writer schema, then blocks of rows, each block
 * ending with the file's 16-byte sync marker. Every row begins with an int {@code _VERSION};
 * readers reject rows of any other version. The top-level record is {@code
 * org.apache.paimon.avro.generated.record}; a nested record is named after its parent plus {@code
 * _} plus its field ({@code record__FILE}, {@code record__FILE__KEY_STATS}). Readers match fields
 * by name in the file's own schema and ignore record names, so fields may be added or optional ones
 * left out.
 *
 * <p>A NOT NULL column is a plain Avro type. A nullable column is the union {@code ["null", T]}
 * with null first and default null; Paimon's reader relies on that order.
 *
 * <h2>Manifest file row ({@code _VERSION} 2)</h2>
 *
 * <pre>
 * _KIND int (0 add, 1 delete) | _PARTITION bytes (serialized BinaryRow) | _BUCKET int
 * | _TOTAL_BUCKETS int | _FILE record:
 *     _FILE_NAME string, _FILE_SIZE long, _ROW_COUNT long, _MIN_KEY bytes, _MAX_KEY bytes,
 *     _KEY_STATS stats, _VALUE_STATS stats, _MIN_SEQUENCE_NUMBER long, _MAX_SEQUENCE_NUMBER long,
 *     _SCHEMA_ID long, _LEVEL int, _EXTRA_FILES array&lt;string&gt;,
 *     _CREATION_TIME ["null", long timestamp-millis], _DELETE_ROW_COUNT ["null", long],
 *     _EMBEDDED_FILE_INDEX ["null", bytes], _FILE_SOURCE ["null", int],
 *     _VALUE_STATS_COLS ["null", array&lt;string&gt;], _EXTERNAL_PATH ["null", string],
 *     _FIRST_ROW_ID ["null", long], _WRITE_COLS ["null", array&lt;string&gt;]
 * </pre>
 *
 * <h2>Manifest list row ({@code _VERSION} 2)</h2>
 *
 * <pre>
 * _FILE_NAME string | _FILE_SIZE long | _NUM_ADDED_FILES long | _NUM_DELETED_FILES long
 * | _PARTITION_STATS stats | _SCHEMA_ID long | _MIN_BUCKET, _MAX_BUCKET, _MIN_LEVEL,
 * _MAX_LEVEL ["null", int]
 * </pre>
 *
 * <p>A list with no rows is valid.
 *
 * <h2>Stats record</h2>
 *
 * <pre>
 * _MIN_VALUES bytes | _MAX_VALUES bytes | _NULL_COUNTS ["null", array&lt;["null", long]&gt;]
 * </pre>
 *
 * <p>Minimum and maximum are serialized BinaryRows (see {@link io.basalt.data}) whose null fields
 * mean "unknown"; a null count of null also means unknown.
 */
package io.basalt.manifest;

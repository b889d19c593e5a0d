/**
 * Row values at the file boundary: Paimon's BinaryRow byte form and partition directory names.
 *
 * <h2>BinaryRow</h2>
 *
 * <p>Partition values, primary-key bounds and stats rows are stored as one contiguous byte array.
 * Multi-byte numbers are little-endian; the total length is always a multiple of 8.
 *
 * <pre>
 * BinaryRow   := Header NullBits Slot^arity VarPart
 * Header      := RowKind (1 byte, 0 = insert in all metadata rows)
 * NullBits    := bit (i + 8) set when field i is null, least significant bit first; Header and
 *                NullBits together take ((arity + 71) / 64) * 8 bytes
 * Slot        := 8 bytes per field, unused bytes zero, all zero for a null
 * VarPart     := values too wide for a slot, appended in field order, each padded to 8 bytes
 * </pre>
 *
 * <p>Slot contents by type:
 *
 * <ul>
 *   <li>BOOLEAN, TINYINT: one byte; SMALLINT: two bytes; INT and DATE (epoch days): four bytes;
 *       BIGINT, FLOAT, DOUBLE: the value or its IEEE bits.
 *   <li>DECIMAL with precision up to 18: the unscaled value as a long. Wider decimals reserve 16
 *       var-part bytes holding the big-endian two's-complement unscaled value, and the slot holds
 *       {@code offset << 32 | byteLength}.
 *   <li>TIMESTAMP and TIMESTAMP_LTZ of Paimon precision 0 to 3: epoch millis as a long in the slot
 *       (Spark's micros truncated to millis). Precision 4 to 9 (Basalt creates 6, Spark's): epoch
 *       millis as a long in 8 var-part bytes, and the slot holds {@code offset << 32 |
 *       nanoOfMillisecond}. The precision comes from the schema ({@link
 *       io.basalt.data.TimestampPrecision}); Spark's types do not carry one.
 *   <li>STRING, CHAR, VARCHAR (UTF-8) and BINARY: up to 7 bytes sit in the slot itself, with {@code
 *       0x80 | length} in its last byte; longer values go to the var part and the slot holds {@code
 *       offset << 32 | length}. Offsets count from the start of the row.
 * </ul>
 *
 * <p>A null wide decimal or timestamp still reserves its zeroed var-part bytes (the slot keeps the
 * offset with length 0), matching Paimon's projections; readers only look at the null bit.
 *
 * <p>Manifests store a row as its arity in 4 big-endian bytes followed by the row bytes, so the
 * empty row is {@code 00000000} plus eight zero bytes.
 *
 * <h2>Partition directories</h2>
 *
 * <p>{@code name=value} per partition column, joined with {@code /}. Values use Paimon's legacy
 * text (a DATE is its epoch-day number); null or blank values become the default partition name;
 * reserved characters are written as {@code %XX}. See {@link io.basalt.data.PartitionPaths}.
 */
package io.basalt.data;

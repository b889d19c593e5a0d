/**
 * Data files in Paimon's layout, written from and read into Spark {@code InternalRow}s: Parquet
 * here, ORC and Avro in the subpackages {@code orc} and {@code avro}. {@link
 * io.basalt.format.DataFileFormat} picks the writer by {@code file.format} and the reader by a
 * file's extension; every writer is a {@link io.basalt.format.FormatWriter}.
 *
 * <h2>Parquet file layout</h2>
 *
 * <ul>
 *   <li>One plain Parquet file per data file; the message is named {@code paimon_schema} and the
 *       footer carries no key-value metadata. The default codec is zstd, row groups target 128 MB
 *       ({@code parquet.block.size}) and pages 1 MB.
 *   <li>Columns are the file schema's fields in order. Append tables store the table columns;
 *       primary-key tables store {@code _KEY_<pk>} columns (id {@code 1073741823 + id}), then
 *       {@code _SEQUENCE_NUMBER} (int64, id {@code 2147483646}), {@code _VALUE_KIND} (int32 INT(8),
 *       id {@code 2147483645}) and then all table columns.
 *   <li>Every Parquet field carries a field id. Table columns and nested ROW fields use their
 *       schema ids; an array element or map value below column {@code c} at nesting depth {@code d}
 *       (1 for the first level) gets {@code 536870911 + c * 1024 + d}, a map key {@code 536870911 -
 *       c * 1024 - d}.
 *   <li>NOT NULL columns are {@code required}, others {@code optional}. TINYINT and SMALLINT are
 *       int32 with INT(8)/INT(16); DATE is int32 DATE; decimals up to 9 digits are int32, up to 18
 *       int64, wider ones the narrowest fixed-length byte array; Spark TIMESTAMP is int64
 *       TIMESTAMP(MICROS, utc) and TIMESTAMP_NTZ int64 TIMESTAMP(MICROS, local); strings are binary
 *       STRING. Arrays use the 3-level {@code list/element} layout, maps {@code
 *       key_value/key/value} with a required key, structs plain groups.
 * </ul>
 *
 * <p>Column statistics (min, max, null count per top-level column) come from the footer's row-group
 * statistics. Readers match columns by field id, or by name in files without ids.
 */
package io.basalt.format;

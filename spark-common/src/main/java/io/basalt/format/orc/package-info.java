/**
 * ORC data files in Paimon's ORC layout, written from and read into Spark {@code InternalRow}s.
 *
 * <ul>
 *   <li>The file schema is a struct of the file schema's columns in order (the key-value layout's
 *       {@code _KEY_*}, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND} first on primary-key tables).
 *       Every type carries its Paimon field id in the attribute {@code paimon.id}; array elements
 *       and map keys/values get the derived nested ids Parquet files use.
 *   <li>Compression is {@code file.compression} (zstd level 1 by default); rows go to ORC in
 *       batches of 1024.
 *   <li>Spark TIMESTAMP_NTZ is ORC {@code timestamp}, Spark TIMESTAMP {@code timestamp with local
 *       time zone}, both written as Paimon's legacy mode does: the UTC wall clock as a {@code
 *       java.sql.Timestamp} of the JVM zone.
 *   <li>Column statistics are collected while writing ({@link io.basalt.format.StatsCollector}).
 * </ul>
 */
package io.basalt.format.orc;

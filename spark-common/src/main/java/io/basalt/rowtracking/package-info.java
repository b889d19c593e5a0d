/**
 * Row tracking: stable row ids ({@code _ROW_ID}) and last-write snapshots ({@code
 * _SEQUENCE_NUMBER}) for append tables, in Paimon 1.3's layout.
 *
 * <ul>
 *   <li>Snapshot: {@code nextRowId}, the first id not handed out yet.
 *   <li>Manifest entry: {@code _FIRST_ROW_ID}, assigned by the commit to every added file a writer
 *       wrote ({@code _FILE_SOURCE} 0) that has none, in commit order; {@code
 *       _MIN/_MAX_SEQUENCE_NUMBER} set to the committing snapshot's id ({@link RowIdAssignment}).
 *   <li>Data file: files that rewrite rows store {@code _ROW_ID} (BIGINT, field id 2147483642) and
 *       {@code _SEQUENCE_NUMBER} (BIGINT, field id 2147483646) after the table columns; a null
 *       falls back to first row id + position and to the file's max sequence number ({@link
 *       RowTracking}).
 * </ul>
 */
package io.basalt.rowtracking;

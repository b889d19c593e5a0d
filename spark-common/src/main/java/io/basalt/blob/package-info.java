/**
 * The {@code .blob} file format of BLOB columns, as Paimon writes it (paimon-format's {@code
 * BlobFormatWriter} and {@code BlobFileMeta}, source at commit 5dacde5, Aug 2026).
 *
 * <p>A file holds the values of one column for a run of rows:
 *
 * <pre>
 * record*  index  index-length:int32 LE  version:int8 (= 1)
 * record = magic:int32 LE (1481511375)  payload  record-length:int64 LE  crc:int32 LE
 * </pre>
 *
 * A record exists for each non-null value only. {@code record-length} is the record's whole size
 * (payload + 16). {@code crc} is the CRC-32 of magic, payload and record length. The index lists
 * every row's record length, -1 for a null (Paimon also writes -2 for a value a partial write left
 * out), each as the difference to the previous entry, zig-zag mapped and written as a little-endian
 * base-128 varint. A row's record starts at the sum of the lengths of the records before it. The
 * file's data-file metadata carries the row count, {@code writeCols} = [column] and a {@code
 * firstRowId} that places the file's rows among those of the data file it belongs to.
 *
 * <p>An ARRAY&lt;BINARY&gt; or MAP&lt;K, BINARY&gt; column keeps a row's whole value in one record,
 * whose payload is Paimon's array or map element payload:
 *
 * <pre>
 * array = 1094861634:int32 1:int8 count:int32 element-bytes* lengths lengths-length:int32
 * map   = 0x4D424342:int32 1:int8 count:int32 key-bytes* value-bytes* key-lengths value-lengths
 *         key-lengths-length:int32 value-lengths-length:int32
 * </pre>
 *
 * The length lists use the index codec (-1 for a null element or value, which has no bytes); key
 * bytes are described in {@link io.basalt.blob.BlobMapKeys}.
 */
package io.basalt.blob;

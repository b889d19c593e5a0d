/**
 * Deletion vectors: per data file, the set of row positions that readers skip, stored the way
 * Apache Paimon 1.3 stores them.
 *
 * <h2>Index file ({@code index/index-<uuid>-<n>})</h2>
 *
 * <p>One file holds the vectors of several data files. Its first byte is the version, 1. Blocks
 * follow back to back, one per data file, in the order the index manifest lists their ranges. No
 * header or footer carries the data file names: only the index manifest's range records ({@code
 * io.basalt.index.DeletionVectorMeta}) connect a block to its data file, by offset and length. A
 * file with no vectors is just the version byte. Writers roll to a new file once one passes {@code
 * deletion-vector.index-file.target-size} (2 MB by default) but never split a block; bucketed
 * tables write one file per bucket regardless of size.
 *
 * <h2>Block</h2>
 *
 * <pre>
 * offset  size   content
 * 0       4      L, big-endian: the byte count of the magic plus the bitmap
 * 4       4      magic: 1581511376 (0x5E43F2D0) big-endian for a 32-bit vector,
 *                or 1681511377 little-endian (bytes D1 D3 39 64) for a 64-bit one
 * 8       L-4    the bitmap, in RoaringBitmap's portable serialization (little-endian)
 * 4+L     4      CRC32 of the L bytes from offset 4, big-endian
 * </pre>
 *
 * <p>The 32-bit bitmap is one standard RoaringBitmap: a cookie (12346 when it has no run
 * containers, 12347 with them), the container count, a key and cardinality per container, offsets,
 * then the containers. The 64-bit bitmap is the portable 64-bit layout: an 8-byte count of 32-bit
 * bitmaps, then per bitmap its 4-byte key (the positions' high 32 bits) and the 32-bit bitmap of
 * their low bits, keys ascending. 64-bit bitmaps are run-length optimized before writing; 32-bit
 * ones are written as they are.
 *
 * <p>A range record stores the offset of the block's length int (1 for the first block) and a
 * length that depends on the variant: L for 32-bit vectors, the whole block (L + 8) for 64-bit
 * ones. Readers seek to the offset, read L and the magic to learn the variant, check L against the
 * recorded length, then read the rest and verify the CRC. Example: deleting row 1 of a three-row
 * file gives the 31-byte file {@code 01 00000016 5e43f2d0 3a300000 01000000 0000 0000 10000000
 * 0100} followed by the CRC, with range (offset 1, length 22, cardinality 1).
 */
package io.basalt.deletionvectors;

/**
 * Bucket assignment. A fixed-bucket table hashes the BinaryRow bytes of each row's bucket key with
 * 32-bit MurmurHash3 (little-endian 4-byte blocks, seed 42, finished with the byte length) and
 * takes {@code Math.abs(hash % numBuckets)}, exactly as Paimon does, so both place a key in the
 * same {@code bucket-<n>} directory. A dynamic-bucket table ({@code bucket} = -1 with a primary
 * key) keeps each bucket's key hashes in a HASH index file instead, and {@link
 * io.basalt.bucket.DynamicBucketAssigner} gives each key the bucket the index holds it in, or opens
 * a new one (docs/dynamic-buckets.md).
 */
package io.basalt.bucket;

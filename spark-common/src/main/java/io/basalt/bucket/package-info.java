/**
 * Bucket assignment. A fixed-bucket table hashes the BinaryRow bytes of each row's bucket key with
 * 32-bit MurmurHash3 (little-endian 4-byte blocks, seed 42, finished with the byte length) and
 * takes {@code Math.abs(hash % numBuckets)}, exactly as Paimon does, so both place a key in the
 * same {@code bucket-<n>} directory.
 */
package io.basalt.bucket;

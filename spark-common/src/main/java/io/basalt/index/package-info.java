/**
 * Index files and the index manifest that lists them, laid out as Apache Paimon 1.3 writes them.
 *
 * <h2>Index files</h2>
 *
 * <p>Index files live in {@code index/} under the table root, named {@code index-<uuid>-<n>}, and
 * are of two types: {@code HASH} (the key hashes of a dynamic bucket; its row count is the number
 * of ints) and {@code DELETION_VECTORS} (see {@link io.basalt.deletionvectors}; its row count is
 * the number of vectors). A file stored elsewhere records its full path as its external path.
 *
 * <h2>Index manifest ({@code manifest/index-manifest-<uuid>-<n>})</h2>
 *
 * <p>An Avro object container file compressed with {@code zstandard}, like the data manifests (see
 * {@link io.basalt.manifest}): top-level record {@code org.apache.paimon.avro.generated.record},
 * nullable fields as {@code ["null", T]} with null first and default null, fields read by name.
 * Each row, at {@code _VERSION} 1:
 *
 * <pre>
 * _VERSION int (1) | _KIND int (0 add, 1 delete) | _PARTITION bytes (serialized BinaryRow)
 * | _BUCKET int | _INDEX_TYPE string | _FILE_NAME string | _FILE_SIZE long | _ROW_COUNT long
 * | _DELETIONS_VECTORS_RANGES ["null", array&lt;["null", record__DELETIONS_VECTORS_RANGES {
 *       f0 string (data file name), f1 int (offset), f2 int (length),
 *       _CARDINALITY ["null", long] (deleted rows) }]&gt;]
 * | _EXTERNAL_PATH ["null", string]
 * </pre>
 *
 * <p>The ranges are null for HASH files and list a deletion vector file's blocks in file order.
 *
 * <p>Unlike a data manifest, an index manifest is not a delta: it lists every live index file of
 * the snapshot, each as ADD. A commit that changes index files reads the previous one, removes the
 * entries its DELETE changes name, puts its ADD changes in (one entry per partition, bucket and
 * index type, so a new file replaces the old; for deletion vectors of bucket-unaware append tables
 * one entry per file name) and writes the whole result to a new file. A commit that changes no
 * index file keeps the previous name in its snapshot.
 */
package io.basalt.index;

package io.basalt.spark.read;

import io.basalt.blob.BlobColumns;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Whether a {@link SparkScan}'s splits read as columnar batches or as rows, and the reader factory
 * for that choice, kept apart from the scan's planning and reporting.
 *
 * <p>The scan is <b>columnar</b> when every split is raw convertible (no key can occur twice, no
 * retraction: its files are read as they are) and Spark's vectorized Parquet reader handles the
 * read schema in this session; its splits are then read as {@code ColumnarBatch}es by {@link
 * VectorizedSplitReader}, deletion vectors (which keep every split of their tables raw convertible)
 * applied as a row filter on the batches. Spark cannot mix row and columnar partitions in one scan,
 * so a single merge-on-read split makes the whole scan read rows, streaming merged rows from the
 * engine. The {@link SparkScan#description()} says which. Metrics: {@link ColumnarSplitsMetric}
 * counts the splits read as batches, {@link MergedSplitsMetric} those merged on read, {@link
 * RowsMergedMetric} the older versions the merges dropped and {@link DeletedRowsSkippedMetric} the
 * rows deletion vectors hid.
 *
 * <p>Data file formats ({@link ColumnarFormats}): Parquet files are decoded by Spark's vectorized
 * Parquet reader, ORC files by orc-core's vectorized reader under Spark's ORC settings ({@link
 * OrcSplitReader}; {@code spark.sql.orc.enableVectorizedReader=false} makes such scans read rows),
 * and a split mixing both (after {@code file.format} changed) reads each file with its own. A scan
 * reads rows when it touches an Avro file (Spark has no columnar Avro reader), when a file's column
 * types converted beyond a widening since it was written (the engine converts old values row by
 * row), and when it reads BLOB columns, row values or row tracking columns.
 */
final class ColumnarReads {
  private ColumnarReads() {}

  /** Whether {@code splits} read as columnar batches of {@code dataSchema}. */
  static boolean columnar(
      FileStoreTable table,
      StructType dataSchema,
      MetadataColumns metadata,
      List<DataSplit> splits) {
    return !splits.isEmpty()
        && !metadata.rowValues()
        && !metadata.rowTracking()
        && splits.stream().allMatch(DataSplit::rawConvertible)
        // BLOB values live in .blob files, which only the row read joins in
        && BlobColumns.of(table.rowType(), table.options()).isEmpty()
        // Spark's vectorized Parquet reader and orc-core's vectorized reader are the columnar
        // paths (ColumnarFormats); Avro files read rows
        && ColumnarFormats.columnar(table, dataSchema, splits)
        // files of older schemas whose values convert (not only widen) read as rows
        && !ConvertedFiles.any(table, table.rowType(), splits);
  }

  /** The reader factory of a scan whose columnar choice is {@code columnar}. */
  static PartitionReaderFactory readerFactory(
      FileStoreTable table,
      StructType dataSchema,
      MetadataColumns metadata,
      Filter[] parquetFilters,
      boolean columnar) {
    // the read type carries field ids: files of older schemas are resolved by id, not name
    SplitRead read = new SplitRead(table, dataSchema).skippingUnreadableFiles();
    VectorizedReadOptions options =
        columnar ? VectorizedReadOptions.of(read.readType(), parquetFilters) : null;
    if (!columnar
        && VectorizedReadOptions.supportsColumnar(table.rowType())
        && !VectorizedReadOptions.readsNanosecondTimestamps(table.rowType(), table.rowType())) {
      // row reads (merges) still decode files with Spark's vectorized reader
      read.withFileOpener(
          new VectorizedFileOpener(
              VectorizedReadOptions.of(read.readType(), new Filter[0]),
              MergeReadFilters.of(table, parquetFilters, metadata)));
    }
    return new SparkReaderFactory(
        table, read, options, columnar ? OrcReadOptions.of() : null, metadata);
  }
}

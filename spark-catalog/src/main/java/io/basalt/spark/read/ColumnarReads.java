package io.basalt.spark.read;

import io.basalt.blob.BlobColumns;
import io.basalt.format.DataFileFormat;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.List;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Whether a {@link SparkScan}'s splits read as columnar batches or as rows, and the reader factory
 * for that choice, kept apart from the scan's planning and reporting.
 *
 * <p>The scan is <b>columnar</b> when Spark's vectorized Parquet reader handles the read schema in
 * this session and every split can be read as batches: raw-convertible splits (no key can occur
 * twice, no retraction: their files are read as they are, by {@link VectorizedSplitReader},
 * deletion vectors applied as a row filter on the batches) and primary-key splits that need
 * merging, read by {@link MergedSplitReader}: the engine's merged rows copied into reused column
 * vectors a batch at a time, and the key ranges of one sorted run passed through as the files' own
 * batches. Spark cannot mix row and columnar partitions in one scan, so the scan reads rows,
 * streaming merged rows from the engine, when any split cannot be read as batches: metadata columns
 * that need each row's own file ({@code __paimon_row}, row tracking), BLOB columns, ORC or Avro
 * files, nanosecond timestamps, files of older schemas whose values convert, or (for splits that
 * merge) a column type the copy into vectors does not handle (calendar intervals, variants,
 * geospatial types), or the session conf {@value #MERGED_BATCHES} set to false (a way to compare
 * with the row path). The {@link SparkScan#description()} says which. Metrics: {@link
 * ColumnarSplitsMetric} counts the splits read straight from their files as batches, {@link
 * MergedSplitsMetric} those merged on read (on either path), {@link UnmergedSectionsMetric} the key
 * ranges of merged splits read without merging, {@link RowsMergedMetric} the older versions the
 * merges dropped and {@link DeletedRowsSkippedMetric} the rows deletion vectors hid.
 *
 * <p>Data file formats ({@link ColumnarFormats}): Parquet files are decoded by Spark's vectorized
 * Parquet reader, ORC files by orc-core's vectorized reader under Spark's ORC settings ({@link
 * OrcSplitReader}; {@code spark.sql.orc.enableVectorizedReader=false} makes such scans read rows),
 * and a split mixing both (after {@code file.format} changed) reads each file with its own. A scan
 * reads rows when it touches an Avro file, when a split that merges holds ORC files (the merged
 * batches pass unmerged key ranges through Spark's Parquet reader) (Spark has no columnar Avro
 * reader), when a file's column types converted beyond a widening since it was written (the engine
 * converts old values row by row), and when it reads BLOB columns, row values or row tracking
 * columns.
 */
final class ColumnarReads {
  /**
   * Session conf: whether splits that need merging may be read as columnar batches (default true);
   * false keeps every scan with such a split on the row path.
   */
  static final String MERGED_BATCHES = "spark.basalt.read.merged-batches.enabled";

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
        && splits.stream()
            .allMatch(
                split ->
                    !needsMerge(table, split) || (mergesToBatches(dataSchema) && allParquet(split)))
        // BLOB values live in .blob files, which only the row read joins in
        && BlobColumns.of(table.rowType(), table.options()).isEmpty()
        // Spark's vectorized Parquet reader and orc-core's vectorized reader are the columnar
        // paths (ColumnarFormats); Avro files read rows
        && ColumnarFormats.columnar(table, dataSchema, splits)
        // files of older schemas whose values convert (not only widen) read as rows
        && !ConvertedFiles.any(table, table.rowType(), splits);
  }

  /** Whether {@code split} is read through a merge. */
  static boolean needsMerge(FileStoreTable table, DataSplit split) {
    return table.hasPrimaryKey() && !split.rawConvertible();
  }

  /** Whether merged rows of {@code dataSchema} may be copied into batches in this session. */
  private static boolean mergesToBatches(StructType dataSchema) {
    return Boolean.parseBoolean(SQLConf.get().getConfString(MERGED_BATCHES, "true"))
        && RowBatchBuffer.supports(VectorizedReadOptions.requestedSchema(dataSchema));
  }

  private static boolean allParquet(DataSplit split) {
    return split.files().stream()
        .allMatch(
            file ->
                DataFileFormat.ofFileName(file.fileName())
                    .map(format -> format == DataFileFormat.PARQUET)
                    .orElse(true));
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
    // merges (on the row path, or into batches) still decode files with Spark's vectorized reader
    if (VectorizedReadOptions.supportsColumnar(table.rowType())
        && !VectorizedReadOptions.readsNanosecondTimestamps(table.rowType(), table.rowType())) {
      read.withFileOpener(
          new VectorizedFileOpener(
              VectorizedReadOptions.of(read.readType(), new Filter[0]),
              MergeReadFilters.of(table, parquetFilters, metadata)));
    }
    return new SparkReaderFactory(
        table, read, options, columnar ? OrcReadOptions.of() : null, metadata);
  }
}

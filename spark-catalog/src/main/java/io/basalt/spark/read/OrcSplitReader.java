package io.basalt.spark.read;

import io.basalt.deletionvectors.DeletionVector;
import io.basalt.format.DataFileFormat;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads a raw-convertible split that holds ORC data files as columnar batches: its files one after
 * the other, ORC files with {@link OrcFileBatches}, Parquet files (a table whose {@code
 * file.format} changed holds both) with {@link VectorizedSplitReader} on a split of that one file.
 * The batch returned by {@link #get()} is reused, valid until the next {@link #next()}.
 *
 * <p>Deletion vectors are looked up by each row's position in its file, which {@link
 * OrcFileBatches#firstRow()} keeps right across the row groups the filters skipped; a batch with
 * deleted rows is returned as {@link SelectedRowsVector views} of its live rows, a batch without
 * any live row is skipped. Metadata columns follow the table columns: constant vectors for the
 * partition, bucket and file path, and the rows' positions for the row index.
 */
final class OrcSplitReader implements PartitionReader<ColumnarBatch> {
  private final FileStoreTable table;
  private final SplitRead read;
  private final DataSplit split;
  private final VectorizedReadOptions parquet;
  private final OrcReadOptions orc;
  private final MetadataColumns metadataColumns;
  private final Configuration conf;

  /** The values of the scan's metadata columns, or null if it reads none. */
  @Nullable private final MetadataValues metadata;

  private int nextFile;
  @Nullable private OrcFileBatches current;
  @Nullable private PartitionReader<ColumnarBatch> parquetFile;
  @Nullable private Path currentPath;
  @Nullable private DeletionVector deleted;
  private int[] selection = new int[0];
  @Nullable private OnHeapColumnVector positions;
  private int positionsCapacity;
  @Nullable private ColumnarBatch batch;

  /** Metric sums of the files done, Parquet files' included. */
  private final List<CustomTaskMetric> finished = new ArrayList<>();

  private long deletedRowsSkipped;

  OrcSplitReader(
      FileStoreTable table,
      SplitRead read,
      DataSplit split,
      VectorizedReadOptions parquet,
      OrcReadOptions orc,
      MetadataColumns metadataColumns,
      Configuration tableConf) {
    this.table = table;
    this.read = read;
    this.split = split;
    this.parquet = parquet;
    this.orc = orc;
    this.metadataColumns = metadataColumns;
    this.conf = tableConf;
    this.metadata = metadataColumns.isEmpty() ? null : metadataColumns.forSplit(table, split);
  }

  /**
   * Whether {@code split} holds an ORC data file, so this reader (not the Parquet one) reads it.
   */
  static boolean readsOrc(DataSplit split) {
    return split.files().stream()
        .anyMatch(
            file ->
                DataFileFormat.ofFileName(file.fileName())
                    .map(format -> format == DataFileFormat.ORC)
                    .orElse(false));
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (parquetFile != null) {
        if (parquetFile.next()) {
          batch = parquetFile.get();
          return true;
        }
        closeParquetFile();
      } else if (current != null) {
        if (nextOrcBatch()) {
          return true;
        }
        closeCurrent();
      }
      if (nextFile >= split.files().size()) {
        return false;
      }
      openFile(nextFile++);
    }
  }

  private boolean nextOrcBatch() {
    try {
      while (current.next()) {
        ColumnarBatch read = current.batch();
        batch = liveRows(withMetadata(read), current.firstRow());
        if (batch != null) {
          return true;
        }
      }
    } catch (RuntimeException e) {
      if (!skippable(e)) {
        throw e;
      }
    }
    return false;
  }

  private void openFile(int index) {
    DataFileMeta file = split.files().get(index);
    boolean isOrc =
        DataFileFormat.ofFileName(file.fileName())
            .map(format -> format == DataFileFormat.ORC)
            .orElse(false);
    if (!isOrc) {
      DataSplit single =
          new DataSplit(
              split.snapshotId(),
              split.partition(),
              split.bucket(),
              split.totalBuckets(),
              List.of(file),
              true,
              split.deletionFiles().isEmpty()
                  ? List.of()
                  : java.util.Collections.singletonList(split.deletionFile(index)));
      parquetFile = new VectorizedSplitReader(table, read, single, parquet, metadataColumns, conf);
      return;
    }
    currentPath = read.path(split, file);
    deleted = DeletionVectors.load(table, file, split.deletionFile(index));
    if (metadata != null) {
      metadata.setFile(currentPath.toString());
    }
    try {
      current =
          OrcFileBatches.open(conf, currentPath, parquet.requestedSchema(), orc, parquet.filters());
    } catch (RuntimeException e) {
      if (!skippable(e)) {
        throw e;
      }
    }
  }

  /**
   * Whether the query goes on without the rest of the current file after {@code failure} ({@code
   * scan.ignore-lost-files}, {@code scan.ignore-corrupt-files}).
   */
  private boolean skippable(Exception failure) {
    return read.unreadableFiles()
        .map(files -> files.skip(table.fileIO(), currentPath, failure))
        .orElse(false);
  }

  /** {@code read} with the metadata columns appended. */
  private ColumnarBatch withMetadata(ColumnarBatch read) {
    if (metadata == null) {
      return read;
    }
    int rows = read.numRows();
    ColumnVector[] metadataVectors =
        metadata.vectors(rows, metadataColumns.rowIndex() ? positions(rows) : null);
    ColumnVector[] columns = new ColumnVector[read.numCols() + metadataVectors.length];
    for (int i = 0; i < read.numCols(); i++) {
      columns[i] = read.column(i);
    }
    System.arraycopy(metadataVectors, 0, columns, read.numCols(), metadataVectors.length);
    return new ColumnarBatch(columns, rows);
  }

  /** The positions in the file of the current batch's rows. */
  private ColumnVector positions(int rows) {
    if (positions == null || positionsCapacity < rows) {
      if (positions != null) {
        positions.close();
      }
      positionsCapacity = Math.max(rows, orc.batchSize());
      positions = new OnHeapColumnVector(positionsCapacity, DataTypes.LongType);
    }
    long first = current.firstRow();
    for (int i = 0; i < rows; i++) {
      positions.putLong(i, first + i);
    }
    return positions;
  }

  /** The live rows of {@code read}, whose first row is row {@code firstRow}; null if none. */
  @Nullable
  private ColumnarBatch liveRows(ColumnarBatch read, long firstRow) {
    if (deleted == null) {
      return read;
    }
    int rows = read.numRows();
    if (selection.length < rows) {
      selection = new int[rows];
    }
    int live = 0;
    for (int i = 0; i < rows; i++) {
      if (!deleted.isDeleted(firstRow + i)) {
        selection[live++] = i;
      }
    }
    deletedRowsSkipped += rows - live;
    if (live == rows) {
      return read;
    }
    return live == 0 ? null : SelectedRowsVector.select(read, selection, live);
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    long rowGroupsSkipped = current == null ? 0 : current.rowGroupsSkipped();
    long rowsSkipped = current == null ? 0 : current.rowsSkipped();
    List<CustomTaskMetric> values = new ArrayList<>(finished);
    if (parquetFile != null) {
      values.addAll(List.of(parquetFile.currentMetricsValues()));
    }
    values.add(DeletedRowsSkippedMetric.taskValue(deletedRowsSkipped));
    values.add(
        ColumnarSplitsMetric.taskValue(OrcFilterMetrics.RowGroupsSkipped.NAME, rowGroupsSkipped));
    values.add(ColumnarSplitsMetric.taskValue(OrcFilterMetrics.RowsSkipped.NAME, rowsSkipped));
    return sums(values);
  }

  /**
   * {@code values} summed by name, this split counted once as a columnar split (its Parquet files'
   * readers count themselves too).
   */
  private static CustomTaskMetric[] sums(List<CustomTaskMetric> values) {
    java.util.Map<String, Long> sums = new java.util.LinkedHashMap<>();
    sums.put(ColumnarSplitsMetric.NAME, 1L);
    sums.put(MergedSplitsMetric.NAME, 0L);
    sums.put(RowsMergedMetric.NAME, 0L);
    for (CustomTaskMetric value : values) {
      if (!sums.containsKey(value.name()) || !isSplitCount(value.name())) {
        sums.merge(value.name(), value.value(), Long::sum);
      }
    }
    return sums.entrySet().stream()
        .map(e -> ColumnarSplitsMetric.taskValue(e.getKey(), e.getValue()))
        .toArray(CustomTaskMetric[]::new);
  }

  private static boolean isSplitCount(String name) {
    return name.equals(ColumnarSplitsMetric.NAME)
        || name.equals(MergedSplitsMetric.NAME)
        || name.equals(RowsMergedMetric.NAME);
  }

  @Override
  public void close() throws IOException {
    try {
      closeParquetFile();
    } finally {
      closeCurrent();
      if (positions != null) {
        positions.close();
        positions = null;
      }
    }
  }

  private void closeParquetFile() throws IOException {
    if (parquetFile != null) {
      PartitionReader<ColumnarBatch> closing = parquetFile;
      parquetFile = null;
      finished.addAll(List.of(closing.currentMetricsValues()));
      closing.close();
    }
  }

  private void closeCurrent() {
    if (current != null) {
      OrcFileBatches closing = current;
      current = null;
      finished.add(
          ColumnarSplitsMetric.taskValue(
              OrcFilterMetrics.RowGroupsSkipped.NAME, closing.rowGroupsSkipped()));
      finished.add(
          ColumnarSplitsMetric.taskValue(OrcFilterMetrics.RowsSkipped.NAME, closing.rowsSkipped()));
      closing.close();
    }
  }
}

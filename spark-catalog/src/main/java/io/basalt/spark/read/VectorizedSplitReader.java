package io.basalt.spark.read;

import io.basalt.BasaltException;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.DataFileErrors;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Option;

/**
 * Reads a raw-convertible split as columnar batches: its files one after the other, each with
 * Spark's {@link VectorizedParquetRecordReader}, reading only the requested table columns (by field
 * id, so files of older schemas resolve renamed, widened and added columns; key and system columns
 * of primary-key files are never decoded) and skipping row groups (and pages) whose statistics
 * prove no row matches the pushed filters. The batch returned by {@link #get()} is reused, and is
 * valid until the next {@link #next()}.
 *
 * <p>Deletion vectors are looked up by the row positions Spark's reader reports (a column after the
 * data columns), which stay the file's positions when row groups and pages are skipped; a batch
 * with deleted rows is returned as {@link SelectedRowsVector views} of its live rows, a batch
 * without any live row is skipped. Metrics count the row groups and rows the filters skipped
 * ({@link ParquetFilterMetrics}).
 *
 * <p>Metadata columns follow the table columns in each batch: constant vectors for the partition,
 * bucket and file path, and for the row index the row positions Spark's Parquet reader generates
 * (it asks for them as a column named {@code _tmp_metadata_row_index}, and keeps them right across
 * skipped row groups and pages).
 */
final class VectorizedSplitReader implements PartitionReader<ColumnarBatch> {
  private final FileStoreTable table;
  private final SplitRead read;
  private final DataSplit split;
  private final List<DataFileMeta> files;
  private final VectorizedReadOptions options;
  private final ParquetReadContexts contexts;

  /** The values of the scan's metadata columns, or null if it reads none. */
  @Nullable private final MetadataValues metadata;

  private final boolean rowIndex;

  /**
   * Whether batches carry each row's position in its file after the data columns: for the row index
   * column, and for deletion vectors once row groups and pages may be skipped.
   */
  private final boolean positions;

  private final int dataColumns;
  private int nextFile;
  @Nullable private FilteredParquetReader current;
  @Nullable private Path currentPath;

  /** The deletion vector of the current file, or null if it has no deleted rows. */
  @Nullable private DeletionVector deleted;

  /** The live rows of the current batch, when some are deleted. */
  private int[] selection = new int[0];

  @Nullable private ColumnarBatch batch;
  private long deletedRowsSkipped;
  private long rowGroupsSkipped;
  private long rowsSkipped;

  VectorizedSplitReader(
      FileStoreTable table,
      SplitRead read,
      DataSplit split,
      VectorizedReadOptions options,
      MetadataColumns metadataColumns,
      Configuration tableConf) {
    this(
        table,
        read,
        split,
        options,
        metadataColumns,
        new ParquetReadContexts.PerTask(options, tableConf));
  }

  /**
   * @param contexts the Parquet read contexts of the task, shared by its split readers
   */
  VectorizedSplitReader(
      FileStoreTable table,
      SplitRead read,
      DataSplit split,
      VectorizedReadOptions options,
      MetadataColumns metadataColumns,
      ParquetReadContexts.PerTask contexts) {
    this.table = table;
    this.read = read;
    this.split = split;
    this.files = split.files();
    this.options = options;
    this.metadata = metadataColumns.isEmpty() ? null : metadataColumns.forSplit(table, split);
    this.rowIndex = metadataColumns.rowIndex();
    this.dataColumns = options.requestedSchema().size();
    boolean deletions = false;
    for (int i = 0; i < files.size(); i++) {
      deletions |= split.deletionFile(i) != null;
    }
    this.positions = rowIndex || deletions;
    this.contexts = contexts.get(positions);
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (current != null) {
        try {
          if (current.nextKeyValue()) {
            ColumnarBatch raw = (ColumnarBatch) current.getCurrentValue();
            batch = liveRows(raw, withMetadata(raw));
            if (batch != null) {
              return true;
            }
            continue;
          }
        } catch (IOException | RuntimeException e) {
          if (!skippable(e)) {
            throw failure("read", currentPath, e);
          }
        }
        closeCurrent();
      }
      if (nextFile >= files.size()) {
        return false;
      }
      int index = nextFile++;
      DataFileMeta file = files.get(index);
      currentPath = read.path(split, file);
      deleted = DeletionVectors.load(table, file, split.deletionFile(index));
      if (metadata != null) {
        metadata.setFile(currentPath.toString());
      }
      try {
        current = open(currentPath);
        rowGroupsSkipped += current.rowGroupsSkipped();
        rowsSkipped += current.rowsSkipped();
      } catch (RuntimeException e) {
        if (!skippable(e)) {
          throw e;
        }
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

  /**
   * {@code read}, the next batch of the current file, with the metadata columns appended and the
   * position column dropped.
   */
  private ColumnarBatch withMetadata(ColumnarBatch read) {
    if (metadata == null && !positions) {
      return read;
    }
    ColumnVector[] metadataVectors =
        metadata == null
            ? new ColumnVector[0]
            : metadata.vectors(read.numRows(), rowIndex ? read.column(dataColumns) : null);
    ColumnVector[] columns = new ColumnVector[dataColumns + metadataVectors.length];
    for (int i = 0; i < dataColumns; i++) {
      columns[i] = read.column(i);
    }
    System.arraycopy(metadataVectors, 0, columns, dataColumns, metadataVectors.length);
    return new ColumnarBatch(columns, read.numRows());
  }

  /**
   * The live rows of {@code read}, the next batch of the current file as {@code raw} holds it (the
   * rows' positions after the data columns); null if none is live.
   */
  @Nullable
  private ColumnarBatch liveRows(ColumnarBatch raw, ColumnarBatch read) {
    if (deleted == null) {
      return read;
    }
    // the reader's own row positions: right across the row groups and pages the filters skipped
    ColumnVector position = raw.column(dataColumns);
    int rows = read.numRows();
    if (selection.length < rows) {
      selection = new int[rows];
    }
    int live = 0;
    for (int i = 0; i < rows; i++) {
      if (!deleted.isDeleted(position.getLong(i))) {
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
    return new CustomTaskMetric[] {
      ColumnarSplitsMetric.taskValue(1),
      MergedSplitsMetric.taskValue(0),
      RowsMergedMetric.taskValue(0),
      DeletedRowsSkippedMetric.taskValue(deletedRowsSkipped),
      ColumnarSplitsMetric.taskValue(ParquetFilterMetrics.RowGroupsSkipped.NAME, rowGroupsSkipped),
      ColumnarSplitsMetric.taskValue(ParquetFilterMetrics.RowsSkipped.NAME, rowsSkipped)
    };
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }

  private void closeCurrent() throws IOException {
    if (current != null) {
      FilteredParquetReader closing = current;
      current = null;
      try {
        closing.close();
      } catch (IOException | RuntimeException e) {
        throw failure("close", currentPath, e);
      }
    }
  }

  /**
   * Opens one data file, skipping the row groups and pages the pushed filters rule out: deletion
   * vectors and the row index read the positions the reader reports, which count skipped rows.
   */
  private FilteredParquetReader open(Path path) {
    try {
      return open(path, contexts, options, fileSchema -> RowGroupFilters.of(options, fileSchema));
    } catch (BasaltException e) {
      // a missing file is named with its snapshot, table and fix, as the row read names it
      throw DataFileErrors.missingFile(e)
          ? DataFileErrors.openFailure(table.name(), split, path, e)
          : e;
    }
  }

  /**
   * Opens one Parquet file for batches of {@code options.requestedSchema()}, with the row-group
   * filter {@code filterFor} returns for the file's schema (null for none).
   */
  static FilteredParquetReader open(
      Path path,
      ParquetReadContexts contexts,
      VectorizedReadOptions options,
      java.util.function.Function<MessageType, FilterPredicate> filterFor) {
    Configuration conf = contexts.conf();
    HadoopInputFile inputFile;
    SeekableInputStream stream;
    ParquetMetadata footer;
    try {
      inputFile = HadoopInputFile.fromPath(path, conf);
      stream = inputFile.newStream();
    } catch (IOException | RuntimeException e) {
      throw failure("open", path, e);
    }
    // Own the stream until the record reader takes it over.
    boolean handedOver = false;
    try {
      // Read the footer once, with the stream the record reader then keeps reading from.
      try (ParquetFileReader footerReader =
          ParquetFileReader.open(
              inputFile, HadoopReadOptions.builder(conf, path).build(), stream)) {
        footer = footerReader.getFooter();
        footerReader.detachFileInputStream();
      }
      MessageType fileSchema = footer.getFileMetaData().getSchema();
      checkFieldIds(path, fileSchema);
      FilterPredicate filter = filterFor.apply(fileSchema);
      TaskAttemptContext context = contexts.context(filter);
      FilteredParquetReader reader =
          new FilteredParquetReader(
              options.offHeap() && TaskContext.get() != null, options.batchSize());
      reader.recordFilter(footer, filter);
      try {
        reader.initialize(
            new FileSplit(path, 0, inputFile.getLength(), new String[0]),
            context,
            Option.apply(inputFile),
            Option.apply(stream),
            Option.apply(footer));
        handedOver = true;
        reader.enableReturningBatches();
        return reader;
      } catch (IOException | RuntimeException | InterruptedException e) {
        try {
          reader.close();
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    } catch (BasaltException e) {
      throw e;
    } catch (IOException | RuntimeException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw failure("open", path, e);
    } finally {
      if (!handedOver) {
        try {
          stream.close();
        } catch (IOException ignored) {
          // the original failure is what matters
        }
      }
    }
  }

  /**
   * Fails clearly on a file without Parquet field ids: columns are matched by id, and every Basalt
   * and Paimon data file carries them, so such a file was put there by something else.
   */
  private static void checkFieldIds(Path path, MessageType fileSchema) {
    for (Type field : fileSchema.getFields()) {
      if (field.getId() == null) {
        throw new BasaltException(
            "Data file "
                + path
                + " has no Parquet field id on column "
                + field.getName()
                + ", so its columns cannot be matched to the table's; Basalt and Paimon write"
                + " field ids on every column, so the file was not written by either. Fix:"
                + " restore the file from a backup.");
      }
    }
  }

  private static BasaltException failure(String action, Path path, Exception e) {
    return new BasaltException(
        "Failed to " + action + " Parquet file " + path + ": " + e.getMessage(), e);
  }
}

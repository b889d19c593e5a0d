package io.basalt.spark.read;

import io.basalt.BasaltException;
import io.basalt.operation.read.SplitRead;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Decodes data files for the engine's row reads (merges, deletion-vector filtering, metadata
 * columns) with Spark's vectorized Parquet reader, handing the batches' rows over one by one: the
 * engine keeps its merge logic, Spark's decoder does the bytes. Every row of a file comes back, in
 * order, so deletion-vector positions stay right, except in the runs of a merge, whose row groups
 * and pages the key filters may skip.
 */
final class VectorizedFileOpener implements SplitRead.FileOpener {
  private static final long serialVersionUID = 1L;

  private final VectorizedReadOptions options;

  /** Filters on the {@code _KEY_} columns of key-value files ({@link MergeReadFilters}). */
  private final Filter[] keyFilters;

  /**
   * @param keyFilters filters that may skip row groups and pages of the files of every run alike:
   *     used for files read with the key columns they name, that is, the runs of a merge
   */
  VectorizedFileOpener(VectorizedReadOptions options, Filter[] keyFilters) {
    this.options = options;
    this.keyFilters = keyFilters;
  }

  /**
   * Per thread, the read set up for the last schema it opened files with: the runs of a merge share
   * one schema, so a task copies the Hadoop configuration once per schema, not once per file.
   */
  private transient ThreadLocal<Opened> last;

  private record Opened(
      Configuration base,
      StructType schema,
      VectorizedReadOptions options,
      ParquetReadContexts contexts) {}

  @Override
  public CloseableIterator<InternalRow> open(Configuration conf, Path path, StructType schema) {
    ThreadLocal<Opened> cache = lastOpened();
    Opened opened = cache.get();
    if (opened == null || opened.base() != conf || !opened.schema().equals(schema)) {
      VectorizedReadOptions forSchema = options.withReadSchema(schema).withFilters(keyFilters);
      opened =
          new Opened(conf, schema, forSchema, new ParquetReadContexts(forSchema.hadoopConf(conf)));
      cache.set(opened);
    }
    VectorizedReadOptions forSchema = opened.options();
    VectorizedParquetRecordReader reader =
        VectorizedSplitReader.open(
            path,
            opened.contexts(),
            forSchema,
            fileSchema -> RowGroupFilters.of(forSchema, fileSchema));
    return new BatchRows(reader, path);
  }

  /** The per-thread cache, made on first use (a transient field is null after deserialization). */
  private synchronized ThreadLocal<Opened> lastOpened() {
    if (last == null) {
      last = new ThreadLocal<>();
    }
    return last;
  }

  /** The rows of a reader's batches; the returned row is reused. */
  private static final class BatchRows implements CloseableIterator<InternalRow> {
    private final VectorizedParquetRecordReader reader;
    private final Path path;
    private Iterator<InternalRow> rows = java.util.Collections.emptyIterator();

    BatchRows(VectorizedParquetRecordReader reader, Path path) {
      this.reader = reader;
      this.path = path;
    }

    @Override
    public boolean hasNext() {
      try {
        while (!rows.hasNext()) {
          if (!reader.nextKeyValue()) {
            return false;
          }
          rows = ((ColumnarBatch) reader.getCurrentValue()).rowIterator();
        }
        return true;
      } catch (IOException | RuntimeException e) {
        throw new BasaltException("Failed to read Parquet file " + path + ": " + e.getMessage(), e);
      }
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return rows.next();
    }

    @Override
    public void close() {
      try {
        reader.close();
      } catch (IOException e) {
        throw new BasaltException("Failed to close Parquet file " + path, e);
      }
    }
  }
}

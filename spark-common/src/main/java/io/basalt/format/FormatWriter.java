package io.basalt.format;

import java.io.Closeable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes Spark rows to one data file of some format (Parquet, ORC, Avro). Not thread-safe; a failed
 * writer is {@link #abort() aborted} and its partial file deleted by the caller.
 */
public interface FormatWriter extends Closeable {

  /**
   * Appends {@code row}, which matches the file schema. The row is not retained.
   *
   * @throws io.basalt.BasaltException when writing fails
   */
  void write(InternalRow row);

  /** The number of rows written so far. */
  long rowCount();

  /** An estimate of the file's size so far, buffered data included; used to roll files. */
  long estimatedSize();

  /**
   * Finishes the file and returns its size, row count and column statistics. Calling it again
   * returns the same result.
   *
   * @throws IllegalStateException when the writer was aborted
   */
  WrittenFile finish();

  /** Releases the writer after a failure, ignoring errors; the caller deletes the file. */
  void abort();

  /** Finishes the file unless it was finished or aborted; safe in try-with-resources. */
  @Override
  void close();
}

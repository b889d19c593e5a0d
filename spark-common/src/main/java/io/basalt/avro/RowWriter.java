package io.basalt.avro;

import java.io.Closeable;

/**
 * Writes rows of one metadata file (such as a manifest, manifest list or index manifest) in order,
 * streaming them to the underlying output. Not thread-safe. Use with try-with-resources: {@link
 * #close()} finishes the file and closes the stream it was created over.
 *
 * @param <T> the record type of a row
 */
public interface RowWriter<T> extends Closeable {

  /**
   * Appends {@code value}.
   *
   * @throws java.io.UncheckedIOException if the output fails
   * @throws IllegalStateException if the writer is closed
   */
  void write(T value);

  /** The number of rows written so far. */
  long count();

  /**
   * Flushes the last block, writes nothing more and closes the output stream. Calling it again does
   * nothing.
   *
   * @throws java.io.UncheckedIOException if the output fails
   */
  @Override
  void close();
}

package io.basalt.utils;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;

/**
 * An iterator over a resource (files, readers) that must be closed; use it with try-with-resources.
 * Implementations that reuse the returned object say so in their Javadoc.
 */
public interface CloseableIterator<T> extends Iterator<T>, Closeable {

  @Override
  void close();

  /** An iterator over an in-memory list; closing does nothing. */
  static <T> CloseableIterator<T> of(List<T> values) {
    Iterator<T> it = values.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  /** Closes {@code closeable}, rethrowing an {@link IOException} unchecked with {@code what}. */
  static void closeQuietlyUnchecked(Closeable closeable, String what) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close " + what, e);
    }
  }
}

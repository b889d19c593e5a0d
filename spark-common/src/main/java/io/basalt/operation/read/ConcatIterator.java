package io.basalt.operation.read;

import io.basalt.manifest.DataFileMeta;
import io.basalt.utils.CloseableIterator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;

/** Reads files one after another, opening each only when the previous one is exhausted. */
final class ConcatIterator implements CloseableIterator<InternalRow> {
  private final Iterator<DataFileMeta> files;
  private final Function<DataFileMeta, CloseableIterator<InternalRow>> opener;
  private CloseableIterator<InternalRow> current;

  ConcatIterator(
      List<DataFileMeta> files, Function<DataFileMeta, CloseableIterator<InternalRow>> opener) {
    this.files = files.iterator();
    this.opener = opener;
  }

  @Override
  public boolean hasNext() {
    while (current == null || !current.hasNext()) {
      if (current != null) {
        current.close();
        current = null;
      }
      if (!files.hasNext()) {
        return false;
      }
      current = opener.apply(files.next());
    }
    return true;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}

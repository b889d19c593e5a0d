package io.basalt.mergetree;

import io.basalt.utils.CloseableIterator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The merged rows of a bucket read section by section ({@link IntervalPartition}): each section's
 * runs are opened only when the previous section is done, and merged by their own {@link
 * MergeIterator} (a section of one run plays no comparison). Rows are reused as {@link
 * MergeIterator} reuses them: each is valid until the next call.
 */
public final class SectionedMerge implements CloseableIterator<InternalRow> {
  private final Iterator<Supplier<MergeIterator>> sections;
  private MergeIterator current;
  private long mergedBefore;

  /**
   * @param sections opens the merge of each section, in key order
   */
  public SectionedMerge(List<Supplier<MergeIterator>> sections) {
    this.sections = sections.iterator();
  }

  /** How many older versions the merge dropped so far, over every section. */
  public long mergedRows() {
    return mergedBefore + (current == null ? 0 : current.mergedRows());
  }

  @Override
  public boolean hasNext() {
    while (current == null || !current.hasNext()) {
      if (current != null) {
        // the last row handed out came from this section and was valid until this call
        mergedBefore += current.mergedRows();
        MergeIterator done = current;
        current = null;
        done.close();
      }
      if (!sections.hasNext()) {
        return false;
      }
      current = sections.next().get();
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
      MergeIterator open = current;
      current = null;
      open.close();
    }
  }
}

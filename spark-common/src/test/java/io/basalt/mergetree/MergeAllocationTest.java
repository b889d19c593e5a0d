package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.schema.SchemaFactory;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.junit.jupiter.api.Test;

/**
 * The structural check of issue 19: merging sorted runs allocates no object per row. Counts the
 * bytes this thread allocates while merging 1,000,000 rows from runs that themselves allocate
 * nothing (one reused row each, as file readers do), and bounds them per row: an object per row
 * would cost at least 16 bytes per row.
 */
class MergeAllocationTest {
  private static final KeyValueLayout LAYOUT =
      new KeyValueLayout(
          SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), Map.of(), null));
  private static final int RUNS = 4;
  private static final int ROWS_PER_RUN = 250_000;

  @Test
  void mergeAllocatesNoObjectPerRow() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    drain(); // warm up: class loading and the first compilations allocate
    long before = threads.getThreadAllocatedBytes(thread);
    long rows = drain();
    long allocated = threads.getThreadAllocatedBytes(thread) - before;
    assertThat(rows).isEqualTo(RUNS * ROWS_PER_RUN / 2);
    assertThat((double) allocated / (RUNS * ROWS_PER_RUN))
        .as("bytes allocated per merged input row (%s bytes in all)", allocated)
        .isLessThan(1.0);
  }

  /** Merges the runs, every key in two of them; returns the rows out. */
  private static long drain() {
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>();
    for (int r = 0; r < RUNS; r++) {
      runs.add(new GeneratedRun(r));
    }
    long count = 0;
    long checksum = 0;
    try (MergeIterator merged = new MergeIterator(runs, LAYOUT)) {
      while (merged.hasNext()) {
        checksum += merged.next().getLong(LAYOUT.sequenceIndex());
        count++;
      }
    }
    assertThat(checksum).isPositive();
    return count;
  }

  /**
   * Run {@code r} holds keys {@code 2i + r % 2}, so runs 0 and 2 (and 1 and 3) hold the same keys
   * and every key has two versions; the later run's version is newer.
   */
  private static final class GeneratedRun implements CloseableIterator<InternalRow> {
    private final int run;
    private final SpecificInternalRow row = new SpecificInternalRow(LAYOUT.fileSchema());
    private int next;

    GeneratedRun(int run) {
      this.run = run;
    }

    @Override
    public boolean hasNext() {
      return next < ROWS_PER_RUN;
    }

    @Override
    public InternalRow next() {
      long key = 2L * next + run % 2;
      row.setLong(0, key);
      row.setLong(1, (long) run * ROWS_PER_RUN + next);
      row.setByte(2, RowKind.INSERT.value());
      row.setLong(3, key);
      row.setNullAt(4);
      next++;
      return row;
    }

    @Override
    public void close() {}
  }
}

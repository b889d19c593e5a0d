package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.schema.SchemaFactory;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class MergeIteratorTest {
  private static final KeyValueLayout LAYOUT =
      new KeyValueLayout(
          SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), Map.of(), null));

  private static InternalRow kv(long key, long sequence, RowKind kind, String value) {
    return new GenericInternalRow(
        new Object[] {key, sequence, kind.value(), key, UTF8String.fromString(value)});
  }

  /** A run that reuses one row object, like the Parquet reader. */
  private static CloseableIterator<InternalRow> run(InternalRow... rows) {
    Iterator<InternalRow> it = List.of(rows).iterator();
    GenericInternalRow reused = new GenericInternalRow(5);
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public InternalRow next() {
        InternalRow r = it.next();
        for (int i = 0; i < 5; i++) {
          reused.update(i, r.isNullAt(i) ? null : ((GenericInternalRow) r).genericGet(i));
        }
        return reused;
      }

      @Override
      public void close() {}
    };
  }

  private static List<String> drain(MergeIterator merged) {
    List<String> out = new ArrayList<>();
    try (merged) {
      while (merged.hasNext()) {
        InternalRow r = merged.next();
        out.add(r.getLong(0) + "=" + r.getUTF8String(4) + "@" + r.getLong(1));
      }
    }
    return out;
  }

  @Test
  void keepsHighestSequencePerKey() {
    MergeIterator merged =
        new MergeIterator(
            List.of(
                run(kv(1, 0, RowKind.INSERT, "a0"), kv(2, 1, RowKind.INSERT, "b0")),
                run(kv(1, 5, RowKind.INSERT, "a5"), kv(3, 6, RowKind.INSERT, "c6")),
                run(kv(1, 3, RowKind.INSERT, "a3"), kv(2, 4, RowKind.UPDATE_AFTER, "b4"))),
            LAYOUT);
    assertThat(drain(merged)).containsExactly("1=a5@5", "2=b4@4", "3=c6@6");
    assertThat(merged.mergedRows()).isEqualTo(3);
  }

  @Test
  void newestDeleteRemovesKeyButOlderDeleteDoesNot() {
    MergeIterator merged =
        new MergeIterator(
            List.of(
                run(kv(1, 0, RowKind.INSERT, "a"), kv(2, 1, RowKind.INSERT, "b")),
                run(kv(1, 2, RowKind.DELETE, "a"), kv(2, 3, RowKind.DELETE, "b")),
                run(kv(2, 4, RowKind.INSERT, "b again"), kv(4, 5, RowKind.DELETE, "x"))),
            LAYOUT);
    assertThat(drain(merged)).containsExactly("2=b again@4");
  }

  /** Concatenates the values of a key's versions, to show which versions a merge saw. */
  private static io.basalt.merge.MergeFunction concatenating() {
    return new io.basalt.merge.MergeFunction() {
      private final StringBuilder values = new StringBuilder();
      private InternalRow newest;

      @Override
      public void reset() {
        values.setLength(0);
      }

      @Override
      public void add(InternalRow keyValue) {
        values.append(values.length() == 0 ? "" : "+").append(keyValue.getUTF8String(4));
        newest = keyValue;
      }

      @Override
      public InternalRow result() {
        return new GenericInternalRow(
            new Object[] {
              newest.getLong(0),
              newest.getLong(1),
              newest.getByte(2),
              newest.getLong(3),
              UTF8String.fromString(values.toString())
            });
      }
    };
  }

  @Test
  void aMergedRunReplacesOlderVersionsInsteadOfMergingWithThem() {
    List<CloseableIterator<InternalRow>> runs =
        List.of(
            run(kv(1, 7, RowKind.INSERT, "l0"), kv(2, 8, RowKind.INSERT, "l0")),
            run(kv(1, 5, RowKind.INSERT, "up1"), kv(3, 5, RowKind.INSERT, "up1")),
            run(kv(1, 2, RowKind.INSERT, "up2"), kv(2, 2, RowKind.INSERT, "up2")));
    MergeIterator merged =
        new MergeIterator(
            runs,
            LAYOUT,
            SequenceOrder.bySequenceNumber(LAYOUT),
            concatenating(),
            false,
            new boolean[] {false, true, true});
    // the newest merged row (up1) stands for all older versions; level-0 rows merge on top
    assertThat(drain(merged)).containsExactly("1=up1+l0@7", "2=up2+l0@8", "3=up1@5");
    MergeIterator plain =
        new MergeIterator(
            List.of(
                run(kv(1, 7, RowKind.INSERT, "l0")),
                run(kv(1, 5, RowKind.INSERT, "up1")),
                run(kv(1, 2, RowKind.INSERT, "up2"))),
            LAYOUT,
            SequenceOrder.bySequenceNumber(LAYOUT),
            concatenating(),
            false);
    assertThat(drain(plain)).containsExactly("1=up2+up1+l0@7");
  }

  @Test
  void emptyAndSingleRuns() {
    assertThat(drain(new MergeIterator(List.of(), LAYOUT))).isEmpty();
    assertThat(drain(new MergeIterator(List.of(run(), run()), LAYOUT))).isEmpty();
    assertThat(drain(new MergeIterator(List.of(run(kv(7, 0, RowKind.INSERT, "x"))), LAYOUT)))
        .containsExactly("7=x@0");
  }

  @Test
  void manyRunsMatchOracle() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    int runCount = 60;
    long sequence = 0;
    TreeMap<Long, String> oracle = new TreeMap<>();
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>();
    for (int r = 0; r < runCount; r++) {
      TreeMap<Long, InternalRow> runRows = new TreeMap<>();
      int size = random.nextInt(50);
      for (int i = 0; i < size; i++) {
        long key = random.nextInt(200);
        if (runRows.containsKey(key)) {
          continue;
        }
        boolean delete = random.nextInt(4) == 0;
        String value = "v" + sequence;
        runRows.put(key, kv(key, sequence, delete ? RowKind.DELETE : RowKind.INSERT, value));
        if (delete) {
          oracle.remove(key);
        } else {
          oracle.put(key, value);
        }
        sequence++;
      }
      runs.add(run(runRows.values().toArray(new InternalRow[0])));
    }
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    oracle.forEach((k, v) -> expected.add(k + "=" + v));
    for (String s : drain(new MergeIterator(runs, LAYOUT))) {
      actual.add(s.substring(0, s.indexOf('@')));
    }
    assertThat(actual).as("seed %s", seed).isEqualTo(expected);
  }
}

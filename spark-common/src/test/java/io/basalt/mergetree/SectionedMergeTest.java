package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.schema.SchemaFactory;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class SectionedMergeTest {
  private static final KeyValueLayout LAYOUT =
      new KeyValueLayout(
          SchemaFactory.create(0, TestTables.ID_V, List.of(), List.of("id"), Map.of(), null));

  private final List<String> events = new ArrayList<>();

  private static InternalRow kv(long key, long sequence) {
    return new GenericInternalRow(
        new Object[] {key, sequence, RowKind.INSERT.value(), key, UTF8String.fromString("v")});
  }

  /** A run that logs when it is closed. */
  private CloseableIterator<InternalRow> run(String name, InternalRow... rows) {
    Iterator<InternalRow> it = List.of(rows).iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public InternalRow next() {
        return it.next();
      }

      @Override
      public void close() {
        events.add("close " + name);
      }
    };
  }

  /** A section whose runs are opened (and the opening logged) only when the merge asks. */
  private Supplier<MergeIterator> section(String name, InternalRow[]... runs) {
    return () -> {
      events.add("open " + name);
      List<CloseableIterator<InternalRow>> iterators = new ArrayList<>();
      for (int i = 0; i < runs.length; i++) {
        iterators.add(run(name + i, runs[i]));
      }
      return new MergeIterator(iterators, LAYOUT);
    };
  }

  @Test
  void opensEachSectionAfterThePreviousIsDoneAndCountsMergedRowsOverAll() {
    SectionedMerge merged =
        new SectionedMerge(
            List.of(
                section("a", new InternalRow[] {kv(1, 0), kv(2, 1)}, new InternalRow[] {kv(2, 5)}),
                section("b", new InternalRow[] {kv(5, 2)}),
                section("c", new InternalRow[] {kv(8, 3)}, new InternalRow[] {kv(8, 6)})));
    List<String> out = new ArrayList<>();
    while (merged.hasNext()) {
      InternalRow row = merged.next();
      events.add("row " + row.getLong(0) + "@" + row.getLong(1));
      out.add(row.getLong(0) + "@" + row.getLong(1));
    }
    merged.close();
    assertThat(out).containsExactly("1@0", "2@5", "5@2", "8@6");
    assertThat(merged.mergedRows()).isEqualTo(2);
    assertThat(events)
        .containsExactly(
            "open a",
            "row 1@0",
            "row 2@5",
            "close a0",
            "close a1",
            "open b",
            "row 5@2",
            "close b0",
            "open c",
            "row 8@6",
            "close c0",
            "close c1");
  }

  @Test
  void closeClosesTheOpenSectionOnly() {
    SectionedMerge merged =
        new SectionedMerge(
            List.of(
                section("a", new InternalRow[] {kv(1, 0)}),
                section("b", new InternalRow[] {kv(5, 2)})));
    assertThat(merged.next().getLong(0)).isEqualTo(1);
    merged.close();
    assertThat(events).containsExactly("open a", "close a0");
  }

  @Test
  void noSectionsIsEmpty() {
    SectionedMerge merged = new SectionedMerge(List.of());
    assertThat(merged.hasNext()).isFalse();
    assertThatThrownBy(merged::next).isInstanceOf(NoSuchElementException.class);
    assertThat(merged.mergedRows()).isZero();
  }
}

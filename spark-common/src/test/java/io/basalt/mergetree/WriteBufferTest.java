package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowComparator;
import io.basalt.data.RowKind;
import io.basalt.schema.SchemaFactory;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary sort buffer against a sorted reference: random keys (composite, with strings that
 * share long prefixes and non-ASCII bytes), spilling under a tiny budget, rows larger than a page,
 * and the memory given back to its pool.
 */
class WriteBufferTest {
  // key (k, n): k a string, n an int, so both the byte and the integer comparisons are exercised
  private static final StructType COMPOSITE =
      new StructType()
          .add("k", DataTypes.StringType, false)
          .add("n", DataTypes.IntegerType, false)
          .add("v", DataTypes.StringType);
  private static final StructType LONG_KEY =
      new StructType().add("id", DataTypes.LongType, false).add("v", DataTypes.StringType);

  @TempDir Path dir;

  private static KeyValueLayout layout(StructType type, String... keys) {
    return new KeyValueLayout(
        SchemaFactory.create(0, type, List.of(), List.of(keys), Map.of(), null));
  }

  private static KeyValues buffer(KeyValueLayout layout, WriteBufferPool pool) {
    return new KeyValues(
        layout,
        "db.t",
        SequenceOrder.bySequenceNumber(layout),
        () -> MergeIterator.newestWins(layout),
        pool);
  }

  private static String key(Random random) {
    // few distinct prefixes, so many keys tie on the 8-byte prefix; some non-ASCII
    String[] stems = {"customer-", "customer-1", "é-", "", "zz"};
    return stems[random.nextInt(stems.length)] + random.nextInt(300);
  }

  /** What the buffer must return: the newest value of each key, in key order. */
  private static TreeMap<List<Object>, String> reference(
      RowComparator keyOrder, List<Object[]> written) {
    TreeMap<List<Object>, String> newest =
        new TreeMap<>(
            (a, b) ->
                keyOrder.compare(
                    new GenericInternalRow(a.toArray()), new GenericInternalRow(b.toArray())));
    for (Object[] row : written) {
      newest.put(List.of(row[0], row[1]), row[2] == null ? "null" : row[2].toString());
    }
    return newest;
  }

  private static List<String> drain(KeyValues buffer) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<InternalRow> rows = buffer.sortedMerged()) {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        // key-value layout: _KEY_k, _KEY_n, seq, kind, k, n, v
        out.add(row.getUTF8String(0) + "/" + row.getInt(1) + "=" + row.getUTF8String(6));
      }
    }
    return out;
  }

  private static List<String> expected(TreeMap<List<Object>, String> reference) {
    List<String> out = new ArrayList<>();
    reference.forEach((key, value) -> out.add(key.get(0) + "/" + key.get(1) + "=" + value));
    return out;
  }

  private List<Object[]> randomRows(long seed, int n) {
    Random random = new Random(seed);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(
          new Object[] {
            UTF8String.fromString(key(random)),
            random.nextInt(5) - 2,
            UTF8String.fromString("v" + i + "-".repeat(random.nextInt(40)))
          });
    }
    return rows;
  }

  @Test
  void randomRowsComeOutSortedWithTheNewestVersionOfEachKey() {
    long seed = new Random().nextLong();
    KeyValueLayout layout = layout(COMPOSITE, "k", "n");
    WriteBufferPool pool = WriteBufferPool.bounded(Long.MAX_VALUE);
    KeyValues buffer = buffer(layout, pool);
    List<Object[]> rows = randomRows(seed, 5_000);
    long sequence = 0;
    for (Object[] row : rows) {
      assertThat(buffer.tryAdd(new GenericInternalRow(row), sequence++, (byte) 0, false)).isTrue();
    }
    RowComparator keyOrder =
        new RowComparator(List.of(DataTypes.StringType, DataTypes.IntegerType));
    assertThat(drain(buffer))
        .as("seed %s", seed)
        .containsExactlyElementsOf(expected(reference(keyOrder, rows)));
    assertThat(pool.used()).isPositive().isEqualTo(buffer.memoryUsed());
    buffer.clear();
    assertThat(pool.used()).as("clear gives every byte back").isZero();
  }

  @Test
  void aTinyBudgetSpillsAndTheSpillsMergeBack() {
    long seed = new Random().nextLong();
    KeyValueLayout layout = layout(COMPOSITE, "k", "n");
    WriteBufferPool pool = WriteBufferPool.bounded(8 << 10);
    KeyValues buffer = buffer(layout, pool);
    List<Object[]> rows = randomRows(seed, 3_000);
    long sequence = 0;
    for (Object[] row : rows) {
      GenericInternalRow input = new GenericInternalRow(row);
      if (!buffer.tryAdd(input, sequence, (byte) 0, false)) {
        buffer.spill(dir);
        assertThat(pool.used()).as("a spill gives the memory back").isZero();
        assertThat(buffer.tryAdd(input, sequence, (byte) 0, false)).isTrue();
      }
      sequence++;
      assertThat(pool.used()).isLessThanOrEqualTo(8 << 10);
    }
    assertThat(buffer.spillCount()).as("an 8kb budget must spill").isGreaterThan(5);
    RowComparator keyOrder =
        new RowComparator(List.of(DataTypes.StringType, DataTypes.IntegerType));
    assertThat(drain(buffer))
        .as("seed %s", seed)
        .containsExactlyElementsOf(expected(reference(keyOrder, rows)));
    buffer.clear();
    assertThat(pool.used()).isZero();
  }

  @Test
  void aRowLargerThanTheBudgetIsRefusedThenForcedIntoAPageOfItsOwn() {
    KeyValueLayout layout = layout(LONG_KEY, "id");
    WriteBufferPool pool = WriteBufferPool.bounded(4 << 10);
    KeyValues buffer = buffer(layout, pool);
    String huge = "x".repeat(1 << 20);
    GenericInternalRow big = new GenericInternalRow(new Object[] {7L, UTF8String.fromString(huge)});
    assertThat(buffer.tryAdd(big, 0, (byte) 0, false)).isFalse();
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.tryAdd(big, 0, (byte) 0, true)).isTrue();
    assertThat(pool.used()).isGreaterThan(1 << 20);
    buffer.add(
        new GenericInternalRow(new Object[] {3L, UTF8String.fromString("small")}), 1, (byte) 0);
    List<String> out = new ArrayList<>();
    try (CloseableIterator<InternalRow> rows = buffer.sortedMerged()) {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        out.add(row.getLong(0) + ":" + row.getUTF8String(4).numBytes());
      }
    }
    assertThat(out).containsExactly("3:5", "7:" + huge.length());
    buffer.clear();
    assertThat(pool.used()).isZero();
  }

  @Test
  void longKeysSortSignedAndRetractionsReachTheOutput() {
    KeyValueLayout layout = layout(LONG_KEY, "id");
    KeyValues buffer = buffer(layout, WriteBufferPool.bounded(Long.MAX_VALUE));
    long[] ids = {5, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 5};
    long sequence = 0;
    for (long id : ids) {
      buffer.add(
          new GenericInternalRow(new Object[] {id, UTF8String.fromString("s" + sequence)}),
          sequence++,
          RowKind.INSERT.value());
    }
    buffer.add(new GenericInternalRow(new Object[] {0L, null}), sequence, RowKind.DELETE.value());
    List<String> out = new ArrayList<>();
    try (CloseableIterator<InternalRow> rows = buffer.sortedMerged()) {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        out.add(row.getLong(0) + ":" + (RowKind.isAdd(row.getByte(2)) ? "+I" : "-D"));
      }
    }
    assertThat(out)
        .containsExactly(Long.MIN_VALUE + ":+I", "-1:+I", "0:-D", "5:+I", Long.MAX_VALUE + ":+I");
  }

  @Test
  void aNullKeyIsRefusedNamingTheColumn() {
    KeyValues buffer = buffer(layout(LONG_KEY, "id"), WriteBufferPool.bounded(1 << 20));
    assertThatThrownBy(
            () ->
                buffer.tryAdd(
                    new GenericInternalRow(new Object[] {null, null}), 0, (byte) 0, false))
        .hasMessageContaining("Primary-key column 'id' of table db.t is NULL");
  }

  @Test
  void aBadBudgetIsRefused() {
    assertThatThrownBy(() -> WriteBufferPool.bounded(0))
        .hasMessageContaining("Invalid write buffer size 0: it must be positive");
  }
}

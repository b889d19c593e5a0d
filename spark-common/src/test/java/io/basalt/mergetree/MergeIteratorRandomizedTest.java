package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.merge.MergeFunction;
import io.basalt.schema.SchemaFactory;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Checks the tournament merge against a reference merge built from a sorted map: random runs (none
 * to seven, some empty), keys repeated across runs, random kinds, lookup-style merged runs. The
 * versions each key hands to the merge function, and their order, must be the reference's exactly.
 */
class MergeIteratorRandomizedTest {
  private static final RowKind[] KINDS = {
    RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE, RowKind.UPDATE_BEFORE
  };

  /** Key shapes that pick each of {@link RunKeys}' specialisations. */
  enum KeyShape {
    BIGINT(new StructType().add("k", DataTypes.LongType, false), List.of("k")),
    INT(new StructType().add("k", DataTypes.IntegerType, false), List.of("k")),
    STRING(new StructType().add("k", DataTypes.StringType, false), List.of("k")),
    COMPOSITE(
        new StructType()
            .add("a", DataTypes.IntegerType, false)
            .add("b", DataTypes.StringType, false),
        List.of("a", "b"));

    final KeyValueLayout layout;

    KeyShape(StructType keys, List<String> pk) {
      this.layout =
          new KeyValueLayout(
              SchemaFactory.create(
                  0, keys.add("v", DataTypes.LongType), List.of(), pk, Map.of(), null));
    }

    /** The key columns of key number {@code n}, ordered as {@code n} is. */
    Object[] key(int n) {
      return switch (this) {
        case BIGINT -> new Object[] {(long) n};
        case INT -> new Object[] {n};
        case STRING -> new Object[] {UTF8String.fromString(String.format("k%05d", n))};
        case COMPOSITE ->
            new Object[] {n / 10, UTF8String.fromString(String.format("%03d", n % 10))};
      };
    }
  }

  /** One version: key number, sequence number, kind, and the run it is in. */
  private record Version(int key, long sequence, RowKind kind, int run) {}

  @ParameterizedTest
  @EnumSource(KeyShape.class)
  void matchesReferenceMerge(KeyShape shape) {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 300; round++) {
      int runCount = random.nextInt(8);
      int keySpace = 1 + random.nextInt(60);
      boolean[] mergedRuns = new boolean[runCount];
      List<List<Version>> runs = new ArrayList<>();
      List<Long> sequences = new ArrayList<>();
      for (long s = 0; s < (long) runCount * keySpace; s++) {
        sequences.add(s);
      }
      Collections.shuffle(sequences, random);
      Iterator<Long> nextSequence = sequences.iterator();
      for (int r = 0; r < runCount; r++) {
        mergedRuns[r] = random.nextInt(4) == 0;
        double density = random.nextDouble();
        List<Version> run = new ArrayList<>();
        for (int k = 0; k < keySpace; k++) {
          if (random.nextDouble() < density) {
            run.add(new Version(k, nextSequence.next(), KINDS[random.nextInt(4)], r));
          }
        }
        runs.add(run);
      }
      boolean emitRetractions = random.nextBoolean();
      String context = "seed " + seed + " round " + round + " shape " + shape;
      assertThat(merge(shape, runs, mergedRuns, emitRetractions))
          .as(context)
          .containsExactlyElementsOf(reference(runs, mergedRuns, emitRetractions));
    }
  }

  /** Each output key with the sequence numbers the merge function received, oldest first. */
  private static List<String> merge(
      KeyShape shape, List<List<Version>> runs, boolean[] mergedRuns, boolean emitRetractions) {
    KeyValueLayout layout = shape.layout;
    Recording recording = new Recording(layout);
    List<CloseableIterator<InternalRow>> iterators = new ArrayList<>();
    for (List<Version> run : runs) {
      iterators.add(reusingRun(shape, run));
    }
    List<String> out = new ArrayList<>();
    long versions = runs.stream().mapToLong(List::size).sum();
    try (MergeIterator merged =
        new MergeIterator(
            iterators,
            layout,
            SequenceOrder.bySequenceNumber(layout),
            recording,
            emitRetractions,
            mergedRuns)) {
      while (merged.hasNext()) {
        InternalRow row = merged.next();
        out.add(row.getLong(layout.valueOffset() + layout.keyArity()) + ":" + recording.seen);
      }
      long keys = runs.stream().flatMap(List::stream).map(Version::key).distinct().count();
      assertThat(merged.mergedRows()).isEqualTo(versions - keys);
    }
    return out;
  }

  private static List<String> reference(
      List<List<Version>> runs, boolean[] mergedRuns, boolean emitRetractions) {
    TreeMap<Integer, List<Version>> byKey = new TreeMap<>();
    for (List<Version> run : runs) {
      for (Version v : run) {
        byKey.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(v);
      }
    }
    List<String> out = new ArrayList<>();
    for (List<Version> versions : byKey.values()) {
      versions.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
      List<Long> seen = new ArrayList<>();
      for (int i = 0; i < versions.size(); i++) {
        if (i > 0 && mergedRuns[versions.get(i).run()]) {
          seen.clear();
        }
        seen.add(versions.get(i).sequence());
      }
      Version newest = versions.get(versions.size() - 1);
      if (emitRetractions || RowKind.isAdd(newest.kind().value())) {
        out.add(newest.sequence() + ":" + seen);
      }
    }
    return out;
  }

  /** A run whose rows share one reused object, as file readers' do. */
  private static CloseableIterator<InternalRow> reusingRun(KeyShape shape, List<Version> run) {
    KeyValueLayout layout = shape.layout;
    int arity = layout.valueOffset() + layout.keyArity() + 1;
    GenericInternalRow reused = new GenericInternalRow(arity);
    Iterator<Version> versions = run.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return versions.hasNext();
      }

      @Override
      public InternalRow next() {
        Version v = versions.next();
        Object[] key = shape.key(v.key());
        for (int i = 0; i < key.length; i++) {
          reused.update(i, key[i]);
          reused.update(layout.valueOffset() + i, key[i]);
        }
        reused.update(layout.sequenceIndex(), v.sequence());
        reused.update(layout.kindIndex(), v.kind().value());
        // the value column carries the sequence number, so a stale row shows in the output
        reused.update(layout.valueOffset() + key.length, v.sequence());
        return reused;
      }

      @Override
      public void close() {}
    };
  }

  /**
   * Deduplicates like the real function and records the sequence numbers it was given, reading
   * every earlier row again at each add (a stale row would show as a wrong sequence number).
   */
  private static final class Recording implements MergeFunction {
    private final int sequenceIndex;
    private final List<InternalRow> added = new ArrayList<>();
    private final List<Long> seen = new ArrayList<>();

    Recording(KeyValueLayout layout) {
      this.sequenceIndex = layout.sequenceIndex();
    }

    @Override
    public void reset() {
      added.clear();
      seen.clear();
    }

    @Override
    public void add(InternalRow keyValue) {
      if (!added.isEmpty()) {
        // the reuse contract: the previous row stays valid until this add returns
        InternalRow previous = added.get(added.size() - 1);
        assertThat(previous.getLong(sequenceIndex)).isEqualTo(seen.get(seen.size() - 1));
      }
      added.add(keyValue);
      seen.add(keyValue.getLong(sequenceIndex));
    }

    @Override
    public InternalRow result() {
      return added.get(added.size() - 1);
    }
  }
}

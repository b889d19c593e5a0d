package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.KeyFileDeletes;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.opentest4j.AssertionFailedError;

/**
 * Property test of every merge engine: random rows (retractions where the engine accepts them; for
 * engines that retract values, only of keys that have a row, as a change stream retracts what it
 * wrote), random commit boundaries, tiny write buffers (so versions meet in the buffer, in spills,
 * in level-0 files and in compactions), random full and minor compaction jobs, with and without
 * deletion vectors; after every commit the table must read exactly what {@link Model} computes from
 * the same rows applied one by one. Set {@code -Dbasalt.test.seed=N} to replay a failure.
 */
class MergeEnginePropertyTest {
  /** Columns: id (key), g1, a, b, g2, c, d (INT), s (STRING). */
  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("g1", DataTypes.IntegerType)
          .add("a", DataTypes.IntegerType)
          .add("b", DataTypes.IntegerType)
          .add("g2", DataTypes.IntegerType)
          .add("c", DataTypes.IntegerType)
          .add("d", DataTypes.IntegerType)
          .add("s", DataTypes.StringType);

  private static final int G1 = 1;
  private static final int A = 2;
  private static final int B = 3;
  private static final int G2 = 4;
  private static final int C = 5;
  private static final int D = 6;
  private static final int S = 7;

  @TempDir Path dir;

  /** The engine configurations under test and whether they accept retractions. */
  enum Engine {
    DEDUPLICATE(true, Map.of()),
    FIRST_ROW(true, Map.of("merge-engine", "first-row", "ignore-delete", "true")),
    PARTIAL_UPDATE(false, Map.of("merge-engine", "partial-update")),
    PARTIAL_UPDATE_IGNORE_DELETE(
        true, Map.of("merge-engine", "partial-update", "ignore-delete", "true")),
    PARTIAL_UPDATE_GROUPS_AND_AGGREGATORS(
        false,
        Map.of(
            "merge-engine", "partial-update",
            "fields.g1.sequence-group", "a,b",
            "fields.g2.sequence-group", "c,d",
            "fields.b.aggregate-function", "max",
            "fields.d.aggregate-function", "sum")),
    PARTIAL_UPDATE_GROUPS_WITH_RETRACTIONS(
        true,
        Map.of(
            "merge-engine", "partial-update",
            "fields.g1.sequence-group", "a,b",
            "fields.g2.sequence-group", "c,d",
            "fields.d.aggregate-function", "sum")),
    AGGREGATION(
        true,
        Map.ofEntries(
            Map.entry("merge-engine", "aggregation"),
            Map.entry("fields.a.aggregate-function", "sum"),
            Map.entry("fields.b.aggregate-function", "max"),
            Map.entry("fields.b.ignore-retract", "true"),
            Map.entry("fields.c.aggregate-function", "min"),
            Map.entry("fields.c.ignore-retract", "true"),
            Map.entry("fields.d.aggregate-function", "first_non_null_value"),
            Map.entry("fields.d.ignore-retract", "true"),
            Map.entry("fields.s.aggregate-function", "listagg"),
            Map.entry("fields.s.ignore-retract", "true"),
            Map.entry("fields.g1.aggregate-function", "last_value"),
            Map.entry("fields.g2.aggregate-function", "sum")));

    final boolean retractions;
    final Map<String, String> options;

    Engine(boolean retractions, Map<String, String> options) {
      this.retractions = retractions;
      this.options = options;
    }

    /**
     * Whether a retraction retracts values from the key's row. Such an engine keeps a retraction of
     * a key without a row until it meets older data, and drops it where none lies below, so what it
     * retracts from depends on compactions: the test retracts only keys that have a row.
     */
    boolean retractsValues() {
      return this == AGGREGATION || this == PARTIAL_UPDATE_GROUPS_WITH_RETRACTIONS;
    }
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void readsMatchTheModel(Engine engine) {
    long base = Long.getLong("basalt.test.seed", new Random().nextLong());
    for (int round = 0; round < 2; round++) {
      long seed = base + round;
      try {
        run(engine, seed, dir.resolve(engine + "-" + round));
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionFailedError(
            engine + " failed with seed " + seed + " (-Dbasalt.test.seed=" + seed + ")", e);
      }
    }
  }

  private void run(Engine engine, long seed, Path path) {
    Random random = new Random(seed);
    boolean deletionVectors = random.nextBoolean();
    Map<String, String> options = new HashMap<>(engine.options);
    options.put("bucket", String.valueOf(1 + random.nextInt(2)));
    options.put("write-buffer-size", (2 + random.nextInt(30)) + "kb");
    options.put("write-buffer-spillable", String.valueOf(random.nextBoolean()));
    options.put("num-sorted-run.compaction-trigger", String.valueOf(2 + random.nextInt(4)));
    options.put("deletion-vectors.enabled", String.valueOf(deletionVectors));
    options.put("write-only", String.valueOf(!deletionVectors && random.nextInt(3) == 0));
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(path.toUri()),
            "db.t",
            SchemaFactory.create(0, SCHEMA, List.of(), List.of("id"), options, null));
    Model model = new Model(engine);
    int keySpace = 5 + random.nextInt(150);
    int commits = 3 + random.nextInt(4);
    for (int commit = 0; commit < commits; commit++) {
      TableWrite write = table.newWrite(TestTables.latestId(table), false);
      int rows = random.nextInt(600);
      for (int i = 0; i < rows; i++) {
        Object[] values = randomRow(random, keySpace);
        RowKind kind = randomKind(random, engine);
        if (engine.retractsValues() && !model.hasRow((Long) values[0])) {
          kind = RowKind.INSERT;
        }
        write.write(new GenericInternalRow(values.clone()), kind);
        model.apply(values, kind);
      }
      table.newCommit("property").commit(write.prepareCommit(), commit);
      boolean compacted = random.nextInt(3) == 0;
      if (compacted) {
        compact(table, random.nextBoolean());
      }
      if (random.nextInt(3) == 0) {
        deleteFromFiles(table, model, random, keySpace, commit);
      }
      // as in Paimon, first-row reads skip level 0, which write-only writers leave to compactions
      boolean levelZeroHidden =
          engine == Engine.FIRST_ROW && "true".equals(options.get("write-only"));
      if (!levelZeroHidden || compacted) {
        assertThat(read(table)).as("after commit %s", commit).isEqualTo(model.rows());
      }
    }
    compact(table, true);
    assertThat(read(table)).as("after a full compaction").isEqualTo(model.rows());
  }

  /**
   * Removes every version of a few random keys from the files holding them, as a DELETE on a merge
   * engine that cannot retract does; to the model the keys were never written.
   */
  private static void deleteFromFiles(
      FileStoreTable table, Model model, Random random, int keySpace, int commit) {
    TreeSet<Long> keys = new TreeSet<>();
    for (int i = random.nextInt(10); i >= 0; i--) {
      keys.add((long) random.nextInt(keySpace));
    }
    Long base = TestTables.latestId(table);
    KeyFileDeletes deletes = new KeyFileDeletes(table, base);
    // every key to every bucket, bucket after bucket: a key matches rows in its own bucket only
    for (int bucket = 0; bucket < table.bucketCount(); bucket++) {
      for (long key : keys) {
        deletes.delete(BinaryRow.EMPTY, bucket, new GenericInternalRow(new Object[] {key}));
      }
    }
    table.newCommit("delete-" + commit).commitRowDeletes(deletes.prepareCommit(), base, commit);
    keys.forEach(model::removeKey);
  }

  private static Object[] randomRow(Random random, int keySpace) {
    Object[] row = new Object[SCHEMA.size()];
    row[0] = (long) random.nextInt(keySpace);
    for (int i = 1; i < S; i++) {
      boolean sequence = i == G1 || i == G2;
      row[i] = random.nextInt(sequence ? 5 : 3) == 0 ? null : random.nextInt(sequence ? 6 : 10);
    }
    row[S] = random.nextInt(3) == 0 ? null : UTF8String.fromString("s" + random.nextInt(4));
    return row;
  }

  private static RowKind randomKind(Random random, Engine engine) {
    if (!engine.retractions || random.nextInt(5) != 0) {
      return random.nextInt(4) == 0 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
    }
    return random.nextBoolean() ? RowKind.DELETE : RowKind.UPDATE_BEFORE;
  }

  private static void compact(FileStoreTable table, boolean full) {
    List<CommitMessage> messages = new ArrayList<>();
    for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
      CommitMessage message = new BucketCompactor(table).compact(split, full);
      if (message.hasCompaction() || !message.newIndexFiles().isEmpty()) {
        messages.add(message);
      }
    }
    table.newCommit("compact").commitCompaction(messages, Long.MAX_VALUE);
  }

  private static Map<Long, List<Object>> read(FileStoreTable table) {
    Map<Long, List<Object>> result = new TreeMap<>();
    SplitRead read = table.newRead(SCHEMA);
    for (DataSplit split : table.newScan().plan().splits()) {
      try (CloseableIterator<InternalRow> rows = read.read(split)) {
        while (rows.hasNext()) {
          InternalRow row = rows.next();
          Object[] values = new Object[SCHEMA.size()];
          for (int i = 0; i < values.length; i++) {
            values[i] = row.isNullAt(i) ? null : row.copy().get(i, SCHEMA.fields()[i].dataType());
          }
          Object previous = result.put(row.getLong(0), Arrays.asList(values));
          assertThat(previous).as("key %s read twice", row.getLong(0)).isNull();
        }
      }
    }
    return result;
  }

  /** Each engine's semantics applied row by row, in write order. */
  static final class Model {
    private final Engine engine;
    private final Map<Long, Object[]> rows = new TreeMap<>();

    Model(Engine engine) {
      this.engine = engine;
    }

    boolean hasRow(long key) {
      return rows.containsKey(key);
    }

    void removeKey(long key) {
      rows.remove(key);
    }

    Map<Long, List<Object>> rows() {
      Map<Long, List<Object>> result = new TreeMap<>();
      rows.forEach((key, values) -> result.put(key, Arrays.asList(values)));
      return result;
    }

    void apply(Object[] input, RowKind kind) {
      long key = (Long) input[0];
      boolean add = RowKind.isAdd(kind.value());
      Object[] current = rows.get(key);
      switch (engine) {
        case DEDUPLICATE:
          if (add) {
            rows.put(key, input.clone());
          } else {
            rows.remove(key);
          }
          return;
        case FIRST_ROW:
          if (add) {
            rows.putIfAbsent(key, input.clone());
          }
          return;
        case PARTIAL_UPDATE:
        case PARTIAL_UPDATE_IGNORE_DELETE:
          if (add) {
            Object[] next = current == null ? empty(key) : current;
            for (int i = 1; i < input.length; i++) {
              next[i] = input[i] != null ? input[i] : next[i];
            }
            rows.put(key, next);
          }
          return;
        case AGGREGATION:
          rows.put(key, aggregate(current == null ? empty(key) : current, input, add));
          return;
        default:
          rows.put(key, groups(current == null ? empty(key) : current, input, add));
      }
    }

    private static Object[] empty(long key) {
      Object[] row = new Object[SCHEMA.size()];
      row[0] = key;
      return row;
    }

    private Object[] groups(Object[] row, Object[] input, boolean add) {
      boolean withMax = engine == Engine.PARTIAL_UPDATE_GROUPS_AND_AGGREGATORS;
      if (add && input[S] != null) {
        row[S] = input[S];
      }
      int[][] groups = {{G1, A, B}, {G2, C, D}};
      for (int[] group : groups) {
        Integer sequence = (Integer) input[group[0]];
        if (sequence == null) {
          continue;
        }
        boolean newer = row[group[0]] == null || sequence >= (Integer) row[group[0]];
        if (newer) {
          row[group[0]] = sequence;
        }
        for (int k = 1; k < 3; k++) {
          int column = group[k];
          Integer in = (Integer) input[column];
          Integer acc = (Integer) row[column];
          if (column == D) {
            row[column] = add ? sum(acc, in) : sum(acc, negate(in));
          } else if (column == B && withMax) {
            row[column] = extreme(acc, in, true);
          } else if (newer) {
            row[column] = add ? in : null;
          }
        }
      }
      return row;
    }

    private static Object[] aggregate(Object[] row, Object[] input, boolean add) {
      if (!add) {
        // sum and last_value retract; every other column ignores retractions
        row[A] = sum((Integer) row[A], negate((Integer) input[A]));
        row[G2] = sum((Integer) row[G2], negate((Integer) input[G2]));
        row[G1] = null;
        return row;
      }
      row[G1] = input[G1];
      row[A] = sum((Integer) row[A], (Integer) input[A]);
      row[B] = extreme((Integer) row[B], (Integer) input[B], true);
      row[C] = extreme((Integer) row[C], (Integer) input[C], false);
      row[D] = row[D] != null ? row[D] : input[D];
      row[G2] = sum((Integer) row[G2], (Integer) input[G2]);
      if (input[S] != null) {
        row[S] = row[S] == null ? input[S] : UTF8String.fromString(row[S] + "," + input[S]);
      }
      return row;
    }

    private static Integer sum(Integer acc, Integer in) {
      if (in == null || acc == null) {
        return in == null ? acc : in;
      }
      return Integer.valueOf(acc + in);
    }

    private static Integer negate(Integer value) {
      return value == null ? null : Integer.valueOf(-value);
    }

    private static Integer extreme(Integer acc, Integer in, boolean max) {
      if (in == null || acc == null) {
        return in == null ? acc : in;
      }
      return Integer.valueOf(max ? Math.max(acc, in) : Math.min(acc, in));
    }
  }
}

package io.basalt.benchmarks.jmh;

import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.schema.SchemaFactory;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The merge of a bucket's sorted runs on the read path: 4 runs of 250,000 rows each, keys drawn at
 * random from 700,000 so that runs interleave and about a third of the keys have several versions.
 * The runs hand out one reused row each, as the file readers do, so every byte allocated is the
 * merge's own; one operation is one input row ({@code -prof gc}'s {@code gc.alloc.rate.norm} is
 * bytes per row).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class MergeIteratorBenchmark {
  private static final int RUNS = 4;
  private static final int ROWS_PER_RUN = 250_000;
  private static final int KEY_SPACE = 700_000;

  /** The primary-key type. */
  @Param({"BIGINT", "STRING"})
  public String keyType;

  private KeyValueLayout layout;
  private long[][] keys;
  private UTF8String[] strings;

  @Setup(Level.Trial)
  public void setUp() {
    boolean string = keyType.equals("STRING");
    StructType table =
        new StructType()
            .add("id", string ? DataTypes.StringType : DataTypes.LongType, false)
            .add("v", DataTypes.LongType);
    layout =
        new KeyValueLayout(
            SchemaFactory.create(0, table, List.of(), List.of("id"), Map.of(), null));
    Random random = new Random(42);
    keys = new long[RUNS][ROWS_PER_RUN];
    for (int r = 0; r < RUNS; r++) {
      // a sorted sample of ROWS_PER_RUN distinct keys out of KEY_SPACE
      int taken = 0;
      for (int k = 0; k < KEY_SPACE && taken < ROWS_PER_RUN; k++) {
        if (random.nextInt(KEY_SPACE - k) < ROWS_PER_RUN - taken) {
          keys[r][taken++] = k;
        }
      }
    }
    if (string) {
      strings = new UTF8String[KEY_SPACE];
      for (int k = 0; k < KEY_SPACE; k++) {
        strings[k] = UTF8String.fromString(String.format("order-%08d", k));
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(RUNS * ROWS_PER_RUN)
  public void merge(Blackhole blackhole) {
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>(RUNS);
    for (int r = 0; r < RUNS; r++) {
      runs.add(new Run(r));
    }
    try (MergeIterator merged = new MergeIterator(runs, layout)) {
      while (merged.hasNext()) {
        blackhole.consume(merged.next().getLong(layout.sequenceIndex()));
      }
    }
  }

  /** One sorted run over pre-generated keys, reusing one row. */
  private final class Run implements CloseableIterator<InternalRow> {
    private final int run;
    private final SpecificInternalRow row;
    private int next;

    Run(int run) {
      this.run = run;
      this.row = new SpecificInternalRow(layout.fileSchema());
    }

    @Override
    public boolean hasNext() {
      return next < ROWS_PER_RUN;
    }

    @Override
    public InternalRow next() {
      int key = (int) keys[run][next];
      if (strings == null) {
        row.setLong(0, key);
        row.setLong(3, key);
      } else {
        row.update(0, strings[key]);
        row.update(3, strings[key]);
      }
      row.setLong(1, (long) run * ROWS_PER_RUN + next);
      row.setByte(2, RowKind.INSERT.value());
      row.setLong(4, next);
      next++;
      return row;
    }

    @Override
    public void close() {}
  }
}

package io.basalt.benchmarks.jmh;

import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.KeyValues;
import io.basalt.schema.SchemaFactory;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The write buffer of one primary-key bucket: inserts {@value #ROWS} order-like rows (random keys,
 * a tenth of them repeated), sorts and merges them, and iterates the result. One operation is one
 * row, so {@code -prof gc}'s {@code gc.alloc.rate.norm} is the bytes allocated per row.
 *
 * <p>Run: {@code benchmarks/run.sh jmh WriteBuffer -f 1 -wi 2 -i 3 -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriteBufferBenchmark {
  static final int ROWS = 200_000;

  private static final StructType ORDERS =
      new StructType()
          .add("order_id", DataTypes.LongType, false)
          .add("customer", DataTypes.StringType)
          .add("amount", DataTypes.DoubleType)
          .add("quantity", DataTypes.IntegerType)
          .add("status", DataTypes.StringType);

  /** Whether every row gets a key of its own or a tenth of the keys repeat (merged in the sort). */
  @Param({"true"})
  public boolean duplicates;

  private KeyValues buffer;
  private GenericInternalRow[] input;

  @Setup(Level.Trial)
  public void setUp() {
    KeyValueLayout layout =
        new KeyValueLayout(
            SchemaFactory.create(0, ORDERS, List.of(), List.of("order_id"), Map.of(), null));
    buffer = new KeyValues(layout, "bench.orders");
    SplittableRandom random = new SplittableRandom(42);
    // the rows are made once, so that the benchmark counts only what the buffer allocates
    input = new GenericInternalRow[ROWS];
    UTF8String[] statuses = {
      UTF8String.fromString("OPEN"), UTF8String.fromString("SHIPPED"), UTF8String.fromString("PAID")
    };
    long keySpace = duplicates ? ROWS - ROWS / 10 : Long.MAX_VALUE;
    for (int i = 0; i < ROWS; i++) {
      input[i] =
          new GenericInternalRow(
              new Object[] {
                random.nextLong(keySpace),
                UTF8String.fromString("customer-" + random.nextInt(100_000)),
                random.nextDouble() * 1000,
                random.nextInt(100),
                statuses[random.nextInt(statuses.length)]
              });
    }
  }

  /** Buffers every row, then sorts, merges and iterates the buffer, and empties it. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void insertSortIterate(Blackhole blackhole) {
    byte kind = RowKind.INSERT.value();
    for (int i = 0; i < ROWS; i++) {
      buffer.add(input[i], i, kind);
    }
    try (CloseableIterator<InternalRow> sorted = buffer.sortedMerged()) {
      while (sorted.hasNext()) {
        blackhole.consume(sorted.next().getLong(0));
      }
    }
    buffer.clear();
  }
}

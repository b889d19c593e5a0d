package io.basalt.benchmarks.jmh;

import io.basalt.data.RowComparator;
import io.basalt.mergetree.RunKeys;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecificInternalRow;
import org.apache.spark.sql.types.DataType;
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

/**
 * Key comparison as the merge does it, old against new: {@code rowComparator} compares two rows
 * field by field through {@link RowComparator} (what the heap merge did at every step); {@code
 * runKeys} loads each row's key once into {@link RunKeys}' per-run slot (a primitive for BIGINT)
 * and compares the slots, which is what the tournament merge does. One operation is one comparison
 * of adjacent rows of 1,024.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class KeyComparatorBenchmark {
  private static final int ROWS = 1024;

  /** The primary-key type. */
  @Param({"BIGINT", "STRING"})
  public String keyType;

  private InternalRow[] rows;
  private RowComparator rowComparator;
  private RunKeys runKeys;

  @Setup(Level.Trial)
  public void setUp() {
    DataType type = keyType.equals("STRING") ? DataTypes.StringType : DataTypes.LongType;
    Random random = new Random(42);
    rows = new InternalRow[ROWS];
    for (int i = 0; i < ROWS; i++) {
      SpecificInternalRow row =
          new SpecificInternalRow(new StructType().add("k", type).add("s", DataTypes.LongType));
      long key = random.nextInt(1_000_000);
      if (type == DataTypes.LongType) {
        row.setLong(0, key);
      } else {
        row.update(0, UTF8String.fromString(String.format("order-%08d", key)));
      }
      row.setLong(1, i);
      rows[i] = row;
    }
    rowComparator = new RowComparator(List.of(type));
    runKeys = RunKeys.of(List.of(type), 2);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS - 1)
  public int rowComparator() {
    int sum = 0;
    for (int i = 0; i + 1 < ROWS; i++) {
      sum += rowComparator.compare(rows[i], rows[i + 1]);
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS - 1)
  public int runKeys() {
    int sum = 0;
    runKeys.load(0, rows[0]);
    for (int i = 0; i + 1 < ROWS; i++) {
      // alternate the slots, so each row's key is loaded once, as the merge loads it
      int current = i & 1;
      int next = current ^ 1;
      runKeys.load(next, rows[i + 1]);
      sum += runKeys.compare(current, next);
    }
    return sum;
  }
}

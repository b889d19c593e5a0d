package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Function1;

class RowBatchBufferTest {
  private static final StructType NESTED =
      new StructType().add("a", DataTypes.IntegerType).add("t", DataTypes.StringType);

  private static final StructType SCHEMA =
      new StructType()
          .add("bool", DataTypes.BooleanType)
          .add("byte", DataTypes.ByteType)
          .add("short", DataTypes.ShortType)
          .add("int", DataTypes.IntegerType)
          .add("long", DataTypes.LongType)
          .add("float", DataTypes.FloatType)
          .add("double", DataTypes.DoubleType)
          .add("dec9", DataTypes.createDecimalType(9, 2))
          .add("dec18", DataTypes.createDecimalType(18, 3))
          .add("dec38", DataTypes.createDecimalType(38, 10))
          .add("str", DataTypes.StringType)
          .add("bin", DataTypes.BinaryType)
          .add("date", DataTypes.DateType)
          .add("ts", DataTypes.TimestampType)
          .add("ts_ntz", DataTypes.TimestampNTZType)
          .add("arr", DataTypes.createArrayType(DataTypes.IntegerType))
          .add("map", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType))
          .add("struct", NESTED)
          .add("nested", DataTypes.createArrayType(NESTED));

  /** Row {@code i}: every column null on a diagonal, empty and null elements in the nested ones. */
  private static InternalRow row(int i) {
    Object[] values = new Object[SCHEMA.size()];
    values[0] = i % 2 == 0;
    values[1] = (byte) i;
    values[2] = (short) (i * 3);
    values[3] = i * 7;
    values[4] = i * 1_000_000_007L;
    values[5] = i / 4f;
    values[6] = -i / 3d;
    values[7] = Decimal.apply(new BigDecimal(i).movePointLeft(2), 9, 2);
    values[8] = Decimal.apply(new BigDecimal(i * 1001L).movePointLeft(3), 18, 3);
    values[9] =
        Decimal.apply(
            new BigDecimal("1234567890123456789012345678").add(new BigDecimal(i)), 38, 10);
    values[10] = UTF8String.fromString("s" + i + "é".repeat(i % 4));
    values[11] = new byte[] {(byte) i, 0, (byte) -i};
    values[12] = i - 500;
    values[13] = i * 86_400_000_001L;
    values[14] = -i * 1_000L;
    values[15] =
        i % 3 == 0
            ? new GenericArrayData(new Object[0])
            : new GenericArrayData(new Object[] {i, null, i + 1});
    values[16] =
        new ArrayBasedMapData(
            new GenericArrayData(new Object[] {UTF8String.fromString("k" + i)}),
            new GenericArrayData(new Object[] {i % 5 == 0 ? null : (long) i}));
    InternalRow struct =
        new GenericInternalRow(new Object[] {i, i % 2 == 0 ? null : UTF8String.fromString("t")});
    values[17] = struct;
    values[18] =
        new GenericArrayData(
            new Object[] {struct, null, new GenericInternalRow(new Object[] {null, null})});
    values[i % values.length] = null;
    return new GenericInternalRow(values);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void copiesEveryTypeAcrossBatches(boolean offHeap) {
    int rows = 95;
    Function1<Object, Object> toRow = CatalystTypeConverters.createToScalaConverter(SCHEMA);
    List<Row> expected = new ArrayList<>();
    List<InternalRow> input = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      input.add(row(i));
      expected.add((Row) toRow.apply(row(i)));
    }
    List<Row> copied = new ArrayList<>();
    List<Integer> batchSizes = new ArrayList<>();
    try (RowBatchBuffer buffer = new RowBatchBuffer(SCHEMA, 10, offHeap)) {
      Iterator<InternalRow> source = input.iterator();
      int count;
      while ((count = buffer.fill(source)) > 0) {
        batchSizes.add(count);
        ColumnarBatch batch = new ColumnarBatch(buffer.vectors(), count);
        for (int i = 0; i < count; i++) {
          copied.add((Row) toRow.apply(batch.getRow(i).copy()));
        }
      }
    }
    assertThat(batchSizes).hasSize(10).startsWith(10, 10).endsWith(5);
    assertThat(copied).isEqualTo(expected);
  }

  @Test
  void copyAllocatesNothingPerRow() {
    StructType flat =
        new StructType()
            .add("bool", DataTypes.BooleanType)
            .add("int", DataTypes.IntegerType)
            .add("long", DataTypes.LongType)
            .add("double", DataTypes.DoubleType)
            .add("dec9", DataTypes.createDecimalType(9, 2))
            .add("dec18", DataTypes.createDecimalType(18, 3))
            .add("str", DataTypes.StringType)
            .add("date", DataTypes.DateType)
            .add("ts", DataTypes.TimestampType)
            .add("nullable", DataTypes.LongType);
    InternalRow reused =
        new GenericInternalRow(
            new Object[] {
              true,
              42,
              7L,
              1.5d,
              Decimal.apply(12345L, 9, 2),
              Decimal.apply(123456789012L, 18, 3),
              UTF8String.fromString("a string of some length"),
              19000,
              1_700_000_000_000_000L,
              null
            });
    int batch = 4096;
    try (RowBatchBuffer buffer = new RowBatchBuffer(flat, batch, false)) {
      // warm up: the vectors' string bytes grow to their working size and the loop compiles
      for (int i = 0; i < 200; i++) {
        assertThat(buffer.fill(repeat(reused, batch))).isEqualTo(batch);
      }
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long thread = Thread.currentThread().getId();
      int batches = 100;
      Iterator<InternalRow>[] sources = new Iterator[batches];
      for (int i = 0; i < batches; i++) {
        sources[i] = repeat(reused, batch);
      }
      long before = threads.getThreadAllocatedBytes(thread);
      for (int i = 0; i < batches; i++) {
        buffer.fill(sources[i]);
      }
      long allocated = threads.getThreadAllocatedBytes(thread) - before;
      long rows = (long) batches * batch;
      // 409,600 rows of 10 columns: not a byte per row (one object per row would be 16+)
      assertThat(allocated).as("bytes allocated for %s rows", rows).isLessThan(rows / 4);
      ColumnVector[] vectors = buffer.vectors();
      assertThat(vectors[6].getUTF8String(batch - 1).toString())
          .isEqualTo("a string of some length");
      assertThat(vectors[9].isNullAt(0)).isTrue();
    }
  }

  @Test
  void rejectsTypesItCannotCopy() {
    StructType intervals = new StructType().add("i", DataTypes.CalendarIntervalType);
    assertThat(RowBatchBuffer.supports(intervals)).isFalse();
    assertThat(RowBatchBuffer.supports(SCHEMA)).isTrue();
    assertThatThrownBy(() -> new RowBatchBuffer(intervals, 10, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot copy rows of")
        .hasMessageContaining("CalendarIntervalType");
  }

  /** {@code row}, {@code times} times, without allocating per row. */
  private static Iterator<InternalRow> repeat(InternalRow row, int times) {
    return new Iterator<>() {
      private int left = times;

      @Override
      public boolean hasNext() {
        return left > 0;
      }

      @Override
      public InternalRow next() {
        if (left-- <= 0) {
          throw new NoSuchElementException();
        }
        return row;
      }
    };
  }
}

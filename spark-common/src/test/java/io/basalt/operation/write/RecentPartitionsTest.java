package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Interleaved partitions are found again by their bytes while they fit, and always give the right
 * bytes, with values of varying length (a longer value's tail must not linger in the buffer).
 */
class RecentPartitionsTest {
  private static final List<DataType> TYPES = List.of(DataTypes.StringType, DataTypes.IntegerType);
  private final BinaryRowCodec codec = new BinaryRowCodec(TYPES.toArray(new DataType[0]));
  private final RecentPartitions partitions = new RecentPartitions(codec);
  // one reused row, as the write's projected view is
  private final GenericInternalRow view = new GenericInternalRow(2);

  private BinaryRow of(int n) {
    view.update(0, UTF8String.fromString("2026-01-0" + (n % 10)));
    view.update(1, n);
    return partitions.of(view);
  }

  @Test
  void interleavedPartitionsAreEncodedOnceAndKeepTheirInstance() {
    BinaryRow first = of(1);
    for (int i = 0; i < 1000; i++) {
      BinaryRow partition = of(i % 4);
      assertThat(partition).isEqualTo(expected(i % 4));
      if (i % 4 == 1) {
        assertThat(partition).isSameAs(first);
      }
    }
    assertThat(partitions.encodings()).isEqualTo(4);
  }

  @Test
  void morePartitionsThanItRemembersStillGiveTheirOwnBytes() {
    int count = RecentPartitions.CAPACITY + 5;
    for (int round = 0; round < 3; round++) {
      for (int n = 0; n < count; n++) {
        assertThat(of(n)).isEqualTo(expected(n));
      }
    }
    // cycling through more partitions than it holds evicts each before it comes back
    assertThat(partitions.encodings()).isEqualTo(3L * count);
  }

  @Test
  void aShorterValueAfterALongerOneIsItsOwnPartition() {
    GenericInternalRow row = new GenericInternalRow(2);
    String[] values = {
      "a-long-partition-value-beyond-seven-bytes", "short", "a-long-partition-value"
    };
    for (int round = 0; round < 2; round++) {
      for (String value : values) {
        row.update(0, UTF8String.fromString(value));
        row.update(1, 7);
        assertThat(partitions.of(row))
            .isEqualTo(
                codec.toBinary(
                    new GenericInternalRow(new Object[] {UTF8String.fromString(value), 7})));
      }
    }
    assertThat(partitions.encodings()).isEqualTo(values.length);
  }

  private BinaryRow expected(int n) {
    return codec.toBinary(
        new GenericInternalRow(new Object[] {UTF8String.fromString("2026-01-0" + (n % 10)), n}));
  }
}

package io.basalt.operation.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.table.DataSplit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Packing follows data size, not bucket count; merge splits stay whole. */
class SplitPackerTest {
  private static int counter;

  private static DataFileMeta file(long size) {
    return DataFileMeta.newFile(
        "f" + counter++,
        size,
        10,
        BinaryRow.EMPTY,
        BinaryRow.EMPTY,
        SimpleStats.EMPTY,
        SimpleStats.EMPTY,
        0,
        0,
        0,
        1,
        0,
        DataFileMeta.SOURCE_APPEND,
        null);
  }

  private static DataSplit split(int bucket, boolean raw, long... sizes) {
    List<DataFileMeta> files = new ArrayList<>();
    for (long size : sizes) {
      files.add(file(size));
    }
    return new DataSplit(1, BinaryRow.EMPTY, bucket, 4, files, raw);
  }

  @Test
  void aLargeRawBucketIsCutBetweenFiles() {
    List<List<DataSplit>> groups =
        new SplitPacker(100, 0).pack(List.of(split(0, true, 60, 60, 60, 60)));
    assertThat(groups).hasSize(4);
    assertThat(groups).allSatisfy(g -> assertThat(g.get(0).bucket()).isZero());
    assertThat(groups.stream().mapToInt(g -> g.get(0).files().size()).sum()).isEqualTo(4);
  }

  @Test
  void smallBucketsShareAnInputPartition() {
    List<List<DataSplit>> groups =
        new SplitPacker(100, 0)
            .pack(List.of(split(0, true, 10), split(1, true, 10), split(2, true, 10)));
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0)).extracting(DataSplit::bucket).containsExactly(0, 1, 2);
  }

  @Test
  void mergeSplitsStayWholeAndTheOpenCostCounts() {
    List<List<DataSplit>> groups =
        new SplitPacker(100, 40)
            .pack(List.of(split(0, false, 60, 60, 60), split(1, true, 1, 1, 1)));
    assertThat(groups.get(0).get(0).files()).hasSize(3);
    // three tiny files weigh 40 each: two fit in 100, the third goes on
    assertThat(groups).hasSize(3);
  }
}

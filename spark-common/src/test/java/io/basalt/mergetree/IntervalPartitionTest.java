package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.mergetree.compact.SortedRun;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class IntervalPartitionTest {
  private static final StructType KEY = new StructType().add("_KEY_id", DataTypes.LongType, false);
  private static final BinaryRowCodec CODEC = new BinaryRowCodec(KEY);

  private static BinaryRow key(long value) {
    return CODEC.toBinary(new GenericInternalRow(new Object[] {value}));
  }

  private static DataFileMeta file(String name, long min, long max, int level) {
    return DataFileMeta.newFile(
        name,
        100,
        max - min + 1,
        key(min),
        key(max),
        SimpleStats.EMPTY,
        SimpleStats.EMPTY,
        0,
        0,
        0,
        level,
        0,
        DataFileMeta.SOURCE_APPEND,
        null);
  }

  private static LevelSortedRun run(int level, DataFileMeta... files) {
    return new LevelSortedRun(level, new SortedRun(List.of(files)));
  }

  /** Each section as "level:file+file|level:file", runs in order. */
  private static List<String> describe(List<List<LevelSortedRun>> sections) {
    List<String> out = new ArrayList<>();
    for (List<LevelSortedRun> section : sections) {
      List<String> runs = new ArrayList<>();
      for (LevelSortedRun run : section) {
        runs.add(
            run.level()
                + ":"
                + String.join(
                    "+", run.run().files().stream().map(DataFileMeta::fileName).toList()));
      }
      out.add(String.join("|", runs));
    }
    return out;
  }

  @Test
  void overlappingFilesShareASectionAndDisjointOnesStandAlone() {
    List<LevelSortedRun> runs =
        List.of(
            run(0, file("new", 15, 25, 0)),
            run(
                2,
                file("a", 0, 9, 2),
                file("b", 10, 19, 2),
                file("c", 20, 29, 2),
                file("d", 40, 49, 2)));
    assertThat(describe(IntervalPartition.sections(runs, KEY)))
        .containsExactly("2:a", "0:new|2:b+c", "2:d");
  }

  @Test
  void touchingRangesShareASection() {
    // key 10 can be in both files: they must merge
    List<LevelSortedRun> runs = List.of(run(0, file("x", 10, 20, 0)), run(1, file("y", 0, 10, 1)));
    assertThat(describe(IntervalPartition.sections(runs, KEY))).containsExactly("0:x|1:y");
  }

  @Test
  void aWideFileSpansTheSectionsItOverlaps() {
    List<LevelSortedRun> runs =
        List.of(
            run(0, file("wide", 5, 35, 0)),
            run(1, file("a", 0, 9, 1), file("b", 10, 19, 1), file("c", 36, 40, 1)));
    assertThat(describe(IntervalPartition.sections(runs, KEY)))
        .containsExactly("0:wide|1:a+b", "1:c");
  }

  @Test
  void singleFileAndNoFiles() {
    assertThat(describe(IntervalPartition.sections(List.of(run(0, file("only", 1, 2, 0))), KEY)))
        .containsExactly("0:only");
    assertThat(IntervalPartition.sections(List.of(), KEY)).isEmpty();
  }

  @Test
  void levelZeroFilesOfTheSameRangeKeepTheirRunOrder() {
    List<LevelSortedRun> runs =
        List.of(
            run(0, file("newest", 0, 5, 0)),
            run(0, file("older", 3, 8, 0)),
            run(3, file("base", 0, 100, 3)));
    assertThat(describe(IntervalPartition.sections(runs, KEY)))
        .containsExactly("0:newest|0:older|3:base");
  }
}

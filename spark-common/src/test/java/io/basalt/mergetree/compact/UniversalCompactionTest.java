package io.basalt.mergetree.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.options.CompactionSettings;
import io.basalt.options.Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The universal picker on tiny fixtures: runs described by (level, size). */
class UniversalCompactionTest {
  private static final StructType KEY = new StructType().add("_KEY_id", DataTypes.LongType);
  private static final BinaryRowCodec CODEC = new BinaryRowCodec(DataTypes.LongType);

  private static int counter;

  private static BinaryRow key(long value) {
    return CODEC.toBinary(new GenericInternalRow(new Object[] {value}));
  }

  /** A file of {@code size} bytes at {@code level}; level-0 files get rising sequence numbers. */
  private static DataFileMeta file(int level, long size) {
    int n = counter++;
    return DataFileMeta.newFile(
        "f" + n,
        size,
        10,
        key(n * 10L),
        key(n * 10L + 9),
        SimpleStats.EMPTY,
        SimpleStats.EMPTY,
        n,
        n,
        0,
        level,
        0,
        DataFileMeta.SOURCE_APPEND,
        null);
  }

  private static UniversalCompaction picker(Map<String, String> options) {
    return new UniversalCompaction(CompactionSettings.of(new Options(options, "table t")));
  }

  private static Levels levels(DataFileMeta... files) {
    return new Levels(KEY, 6, List.of(files));
  }

  @Test
  void fewerRunsThanTheTriggerPickNothing() {
    Levels levels = levels(file(0, 10), file(0, 10), file(5, 1000));
    assertThat(picker(Map.of()).pick(levels)).isEmpty();
  }

  @Test
  void sizeAmplificationCompactsEverythingIntoTheTopLevel() {
    Levels levels = levels(file(0, 100), file(0, 100), file(0, 100), file(0, 100), file(5, 100));
    Optional<CompactUnit> unit = picker(Map.of()).pick(levels);
    assertThat(unit).isPresent();
    assertThat(unit.get().runs()).hasSize(5);
    assertThat(unit.get().outputLevel()).isEqualTo(5);
    assertThat(unit.get().dropRetractions()).isTrue();
  }

  @Test
  void sizeRatioMergesSimilarNewRunsAboveAnOlderLevel() {
    // newest first: 10, 10, 10, 10 then a big level-4 run and a huge level-5 run
    List<DataFileMeta> files = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      files.add(file(0, 10));
    }
    files.add(file(4, 1_000));
    files.add(file(5, 100_000));
    Optional<CompactUnit> unit = picker(Map.of()).pick(new Levels(KEY, 6, files));
    assertThat(unit).isPresent();
    assertThat(unit.get().runs()).hasSize(4);
    assertThat(unit.get().outputLevel()).isEqualTo(3);
    assertThat(unit.get().dropRetractions()).isFalse();
  }

  @Test
  void tooManyRunsMergeDownToTheTrigger() {
    // sizes grow fast so neither amplification nor size ratio applies
    List<DataFileMeta> files = new ArrayList<>();
    long[] sizes = {1, 10, 100, 1_000, 10_000, 100_000_000};
    for (int i = 0; i < sizes.length - 1; i++) {
      files.add(file(0, sizes[i]));
    }
    files.add(file(5, sizes[sizes.length - 1]));
    CompactUnit unit =
        picker(Map.of("num-sorted-run.compaction-trigger", "3"))
            .pick(new Levels(KEY, 6, files))
            .get();
    // 6 runs, trigger 3: merge the newest 4, and level 0 is never an output level
    assertThat(unit.runs().size()).isGreaterThanOrEqualTo(4);
    assertThat(unit.outputLevel()).isGreaterThan(0);
  }

  @Test
  void tooManyRunsAboveATopLevelRunMergeAllOfLevel0IntoTheLevelBelowIt() {
    // a load on the top level, then six upserts on level 0 whose sizes never meet the size ratio
    // from the newest run: the run count forces a merge, which must stop above the load
    List<DataFileMeta> files = new ArrayList<>();
    long[] sizes = {10, 20, 15, 30, 12, 25};
    for (long size : sizes) {
      files.add(file(0, size));
    }
    files.add(file(5, 10_000));
    CompactUnit unit = picker(Map.of()).pick(new Levels(KEY, 6, files)).get();

    assertThat(unit.runs()).hasSize(sizes.length).allMatch(run -> run.level() == 0);
    assertThat(unit.outputLevel()).isEqualTo(4);
    assertThat(unit.dropRetractions()).isFalse();
  }

  @Test
  void aSizeRatioPickTakesTheFollowingLevel0RunsWhateverTheirSize() {
    // the two newest runs meet the ratio; the next level-0 run is far larger but still joins,
    // since a unit that stops in level 0 would write below it
    List<DataFileMeta> files = new ArrayList<>();
    files.add(file(0, 10));
    files.add(file(0, 10));
    files.add(file(0, 500));
    files.add(file(0, 10));
    files.add(file(3, 2_000));
    files.add(file(5, 100_000));
    CompactUnit unit = picker(Map.of()).pick(new Levels(KEY, 6, files)).get();

    assertThat(unit.runs()).hasSize(4);
    assertThat(unit.outputLevel()).isEqualTo(2);
  }

  @Test
  void fullCompactionSkipsABucketThatIsAlreadyOneCleanRun() {
    Levels done = levels(file(5, 100), file(5, 100));
    assertThat(UniversalCompaction.full(done)).isEmpty();
    Levels notDone = levels(file(0, 1), file(5, 100));
    assertThat(UniversalCompaction.full(notDone).get().outputLevel()).isEqualTo(5);
  }
}

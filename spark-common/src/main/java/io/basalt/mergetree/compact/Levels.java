package io.basalt.mergetree.compact;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowComparator;
import io.basalt.manifest.DataFileMeta;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The LSM state of one bucket: level-0 files (each its own sorted run, newest first) and one sorted
 * run per higher level (files in key order). Not thread-safe.
 */
public final class Levels {
  private final int numLevels;
  private final Comparator<BinaryRow> keyOrder;
  private final List<DataFileMeta> level0 = new ArrayList<>();
  private final List<List<DataFileMeta>> levels = new ArrayList<>();

  /**
   * @param keyType the key columns, with their timestamp precisions (see {@code
   *     KeyValueLayout.keyType()})
   */
  public Levels(StructType keyType, int numLevels, List<DataFileMeta> files) {
    this.numLevels = numLevels;
    BinaryRowCodec codec = new BinaryRowCodec(keyType);
    RowComparator rows =
        new RowComparator(Arrays.stream(keyType.fields()).map(StructField::dataType).toList());
    this.keyOrder = (a, b) -> rows.compare(codec.toRow(a), codec.toRow(b));
    for (int i = 1; i < numLevels; i++) {
      levels.add(new ArrayList<>());
    }
    add(files);
  }

  public int numLevels() {
    return numLevels;
  }

  public int maxLevel() {
    return numLevels - 1;
  }

  /** Sorted runs from newest to oldest: level-0 files by sequence, then levels 1, 2, ... */
  public List<LevelSortedRun> sortedRuns() {
    List<LevelSortedRun> runs = new ArrayList<>();
    for (DataFileMeta file : level0) {
      runs.add(new LevelSortedRun(0, new SortedRun(List.of(file))));
    }
    for (int i = 0; i < levels.size(); i++) {
      if (!levels.get(i).isEmpty()) {
        runs.add(new LevelSortedRun(i + 1, new SortedRun(levels.get(i))));
      }
    }
    return runs;
  }

  public int numberOfSortedRuns() {
    int runs = level0.size();
    for (List<DataFileMeta> level : levels) {
      if (!level.isEmpty()) {
        runs++;
      }
    }
    return runs;
  }

  /** The highest level holding files, or -1 when the bucket is empty. */
  public int nonEmptyHighestLevel() {
    for (int i = levels.size() - 1; i >= 0; i--) {
      if (!levels.get(i).isEmpty()) {
        return i + 1;
      }
    }
    return level0.isEmpty() ? -1 : 0;
  }

  /** The level-0 files, newest first. */
  public List<DataFileMeta> level0Files() {
    return List.copyOf(level0);
  }

  /** The sorted runs of levels above 0, lowest level first. */
  public List<SortedRun> upperRuns() {
    List<SortedRun> runs = new ArrayList<>();
    for (List<DataFileMeta> level : levels) {
      if (!level.isEmpty()) {
        runs.add(new SortedRun(level));
      }
    }
    return runs;
  }

  /** The lowest level above 0 holding no file, or -1 when every level is taken. */
  public int lowestEmptyLevel() {
    for (int i = 0; i < levels.size(); i++) {
      if (levels.get(i).isEmpty()) {
        return i + 1;
      }
    }
    return -1;
  }

  /**
   * The level right above the lowest non-empty level above 0, so that a run written there is above
   * every older run (levels order runs by age, as Paimon reads them); the max level when no level
   * above 0 holds files; -1 when level 1 does.
   */
  public int levelAboveUpperRuns() {
    for (int i = 0; i < levels.size(); i++) {
      if (!levels.get(i).isEmpty()) {
        return i == 0 ? -1 : i;
      }
    }
    return maxLevel();
  }

  /** Every file, newest runs first. */
  public List<DataFileMeta> allFiles() {
    List<DataFileMeta> files = new ArrayList<>();
    for (LevelSortedRun run : sortedRuns()) {
      files.addAll(run.run().files());
    }
    return files;
  }

  /** Replaces {@code before} by {@code after} (a compaction or new files). */
  public void update(List<DataFileMeta> before, List<DataFileMeta> after) {
    for (DataFileMeta file : before) {
      List<DataFileMeta> level = file.level() == 0 ? level0 : levels.get(file.level() - 1);
      Check.state(
          level.removeIf(f -> f.fileName().equals(file.fileName())),
          "File %s is not in level %s",
          file.fileName(),
          file.level());
    }
    add(after);
  }

  private void add(List<DataFileMeta> files) {
    for (DataFileMeta file : files) {
      Check.argument(
          file.level() < numLevels,
          "File %s is at level %s, but the table has %s levels",
          file.fileName(),
          file.level(),
          numLevels);
      if (file.level() == 0) {
        level0.add(file);
      } else {
        levels.get(file.level() - 1).add(file);
      }
    }
    // newest level-0 files first; ties by name keep the order deterministic
    level0.sort(
        Comparator.comparingLong(DataFileMeta::maxSequenceNumber)
            .reversed()
            .thenComparing(DataFileMeta::fileName));
    for (List<DataFileMeta> level : levels) {
      level.sort((a, b) -> keyOrder.compare(a.minKey(), b.minKey()));
    }
  }
}

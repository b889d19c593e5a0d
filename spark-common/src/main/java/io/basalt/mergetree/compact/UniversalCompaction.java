package io.basalt.mergetree.compact;

import io.basalt.options.CompactionSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Picks minor compactions in the universal (size-tiered) style: with at least the trigger number of
 * sorted runs, first check space amplification (compact everything when the newer runs outweigh the
 * oldest), then size ratio (merge the newest runs while each next run is not much larger than what
 * is picked), then run count (merge the newest runs down to the trigger).
 */
public final class UniversalCompaction {
  private final CompactionSettings settings;

  public UniversalCompaction(CompactionSettings settings) {
    this.settings = settings;
  }

  /** The compaction to run for {@code levels}, if any. */
  public Optional<CompactUnit> pick(Levels levels) {
    List<LevelSortedRun> runs = levels.sortedRuns();
    if (runs.size() < settings.compactionTrigger()) {
      return Optional.empty();
    }
    if (spaceAmplificationTooHigh(runs)) {
      return Optional.of(unit(levels, runs, runs.size()));
    }
    int picked = extendBySizeRatio(runs, 1);
    if (picked > 1) {
      return Optional.of(unit(levels, runs, picked));
    }
    if (runs.size() > settings.compactionTrigger()) {
      // too many runs: at least the newest ones down to the trigger, extended like a size-ratio
      // pick, so the unit takes every run of levels 0 and 1 in front of the older levels instead
      // of reaching through them into the oldest run (which would rewrite the whole bucket)
      int count = runs.size() - settings.compactionTrigger() + 1;
      return Optional.of(unit(levels, runs, extendBySizeRatio(runs, count)));
    }
    return Optional.empty();
  }

  /** Everything into one run at the top level (full compaction), if there is anything to do. */
  public static Optional<CompactUnit> full(Levels levels) {
    List<LevelSortedRun> runs = levels.sortedRuns();
    if (runs.isEmpty()
        || (runs.size() == 1 && runs.get(0).level() == levels.maxLevel() && noRetractions(runs))) {
      return Optional.empty();
    }
    return Optional.of(new CompactUnit(levels.maxLevel(), runs, true));
  }

  /**
   * When every level above 0 is taken: the runs of levels 1 to max - 1 merged into level max - 1,
   * which frees level 1 and leaves the top run (the bulk of the bucket) as it is. Empty when some
   * level above 0 is free, or there are not two such runs to merge.
   */
  public static Optional<CompactUnit> belowTop(Levels levels) {
    List<LevelSortedRun> upper = new ArrayList<>();
    for (LevelSortedRun run : levels.sortedRuns()) {
      if (run.level() > 0 && run.level() < levels.maxLevel()) {
        upper.add(run);
      }
    }
    if (levels.lowestEmptyLevel() > 0 || upper.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(new CompactUnit(levels.maxLevel() - 1, upper, false));
  }

  private static boolean noRetractions(List<LevelSortedRun> runs) {
    for (LevelSortedRun run : runs) {
      for (var file : run.run().files()) {
        if (file.deleteRowCount() == null || file.deleteRowCount() > 0) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean spaceAmplificationTooHigh(List<LevelSortedRun> runs) {
    long newer = 0;
    for (int i = 0; i < runs.size() - 1; i++) {
      newer += runs.get(i).run().totalSize();
    }
    long oldest = runs.get(runs.size() - 1).run().totalSize();
    return newer * 100 > (long) settings.maxSizeAmplificationPercent() * oldest;
  }

  /**
   * How many of the newest runs to merge, starting from {@code count}: the next run joins while it
   * is not much larger than the runs picked so far; once two or more runs are picked, a run of
   * level 0 or 1 joins whatever its size (as Paimon picks), since leaving it would make the output
   * land below it. A result of 1 means no compaction.
   */
  private int extendBySizeRatio(List<LevelSortedRun> runs, int count) {
    long candidate = 0;
    for (int i = 0; i < count; i++) {
      candidate += runs.get(i).run().totalSize();
    }
    int picked = count;
    while (picked < runs.size()) {
      LevelSortedRun next = runs.get(picked);
      long size = next.run().totalSize();
      if (candidate * (100 + settings.sizeRatio()) / 100 < size
          && (picked < 2 || next.level() > 1)) {
        break;
      }
      candidate += size;
      picked++;
    }
    return picked;
  }

  /** The unit merging the newest {@code count} runs, never writing level 0. */
  private static CompactUnit unit(Levels levels, List<LevelSortedRun> runs, int count) {
    int outputLevel;
    if (count == runs.size()) {
      outputLevel = levels.maxLevel();
    } else {
      outputLevel = Math.max(0, runs.get(count).level() - 1);
      // level 0 holds only fresh files: pull in runs until one above level 0 can take the output
      while (outputLevel == 0 && count < runs.size()) {
        int level = runs.get(count).level();
        count++;
        if (level > 0) {
          outputLevel = level;
        }
      }
      if (count == runs.size()) {
        outputLevel = levels.maxLevel();
      }
    }
    boolean dropRetractions = count == runs.size();
    return new CompactUnit(outputLevel, runs.subList(0, count), dropRetractions);
  }
}

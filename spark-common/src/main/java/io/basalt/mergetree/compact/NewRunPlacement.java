package io.basalt.mergetree.compact;

import io.basalt.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a write's sorted run goes. Normally level 0; but on a deletion-vector table the only run
 * written into a bucket that holds no file yet goes straight to the top level, since nothing lies
 * below it to merge with: its reads skip level 0, so the run would otherwise be rewritten at once.
 * The run must hold no retraction, as the top level never does. (The writer asks {@code
 * BucketCompaction.newRunMayGoToTop()} whether the table allows it.)
 *
 * <p>This is only right if the bucket is still empty when the write commits; the commit checks that
 * and moves the run back to level 0 otherwise (a level change needs no rewrite, and a sorted run is
 * always valid on level 0).
 */
public final class NewRunPlacement {
  private NewRunPlacement() {}

  /**
   * The level for {@code run}, the files of one sorted run about to join {@code levels}: the top
   * level when the bucket is empty and the run holds only inserts and updates, level 0 otherwise.
   */
  public static int level(Levels levels, List<DataFileMeta> run) {
    if (run.isEmpty() || levels.numberOfSortedRuns() > 0) {
      return 0;
    }
    for (DataFileMeta file : run) {
      // a null count (older writers) may hide retractions
      if (file.level() != 0 || !Long.valueOf(0).equals(file.deleteRowCount())) {
        return 0;
      }
    }
    return levels.maxLevel();
  }

  /** {@code run} moved to {@code level} (no rewrite: the level lives in the metadata only). */
  public static List<DataFileMeta> atLevel(List<DataFileMeta> run, int level) {
    List<DataFileMeta> moved = new ArrayList<>(run.size());
    for (DataFileMeta file : run) {
      moved.add(file.level() == level ? file : file.withLevel(level));
    }
    return moved;
  }
}

package io.basalt.mergetree.compact;

import java.util.ArrayList;
import java.util.List;

/**
 * What one compaction rewrites: the newest runs of a bucket, merged into {@code outputLevel}.
 *
 * @param dropRetractions whether no older data lies below the output, so retractions can go
 */
public record CompactUnit(int outputLevel, List<LevelSortedRun> runs, boolean dropRetractions) {
  public CompactUnit {
    runs = List.copyOf(runs);
  }

  /** Every input file. */
  public List<io.basalt.manifest.DataFileMeta> files() {
    List<io.basalt.manifest.DataFileMeta> files = new ArrayList<>();
    for (LevelSortedRun run : runs) {
      files.addAll(run.run().files());
    }
    return files;
  }
}

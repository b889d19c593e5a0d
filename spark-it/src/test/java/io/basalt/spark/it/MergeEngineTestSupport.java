package io.basalt.spark.it;

import java.util.List;

/** Table variants merge-engine tests run each scenario on: where and when versions get merged. */
final class MergeEngineTestSupport {
  private MergeEngineTestSupport() {}

  /**
   * Extra TBLPROPERTIES per variant: merge on read (writers never compact), compaction in the
   * writers after every second flush, and deletion vectors (lookups merge at every commit).
   */
  static final List<String> VARIANTS =
      List.of(
          "'write-only' = 'true'",
          "'num-sorted-run.compaction-trigger' = '2'",
          "'deletion-vectors.enabled' = 'true'");

  /** A short table-name suffix for variant {@code i}. */
  static String suffix(int i) {
    return List.of("_mor", "_compacted", "_dv").get(i);
  }
}

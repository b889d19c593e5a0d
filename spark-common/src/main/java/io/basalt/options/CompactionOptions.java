package io.basalt.options;

/** Options of the merge tree's compaction and of append tables' small-file merging. */
public final class CompactionOptions {
  private CompactionOptions() {}

  public static final ConfigOption<Integer> NUM_SORTED_RUNS_COMPACTION_TRIGGER =
      ConfigOption.key("num-sorted-run.compaction-trigger")
          .intType()
          .defaultValue(5)
          .description(
              "Number of sorted runs in a bucket (each level-0 file is one, each higher level one)"
                  + " that triggers a minor compaction in the writer.");

  public static final ConfigOption<Integer> NUM_SORTED_RUNS_STOP_TRIGGER =
      ConfigOption.key("num-sorted-run.stop-trigger")
          .intType()
          .description(
              "Number of sorted runs at which a writer stops and waits for compaction"
                  + " (backpressure). Defaults to num-sorted-run.compaction-trigger + 3.");

  public static final ConfigOption<Integer> NUM_LEVELS =
      ConfigOption.key("num-levels")
          .intType()
          .description(
              "Number of LSM levels, level 0 included. Defaults to"
                  + " num-sorted-run.compaction-trigger + 1.");

  public static final ConfigOption<Integer> MAX_SIZE_AMPLIFICATION_PERCENT =
      ConfigOption.key("compaction.max-size-amplification-percent")
          .intType()
          .defaultValue(200)
          .description(
              "When the runs above the oldest one are more than this percentage of its size, all"
                  + " runs are compacted into one (bounds space amplification).");

  public static final ConfigOption<Integer> SIZE_RATIO =
      ConfigOption.key("compaction.size-ratio")
          .intType()
          .defaultValue(1)
          .description(
              "Percentage flexibility when comparing run sizes: a run joins a compaction when it"
                  + " is no larger than the runs picked so far times (100 + ratio) / 100.");

  public static final ConfigOption<Integer> FULL_COMPACTION_DELTA_COMMITS =
      ConfigOption.key("full-compaction.delta-commits")
          .intType()
          .description(
              "Compact every written bucket fully (into one sorted run at the top level) every"
                  + " this many commits of the table (APPEND and OVERWRITE snapshots since the last"
                  + " full compaction). Unset: only minor compactions happen in writers, except"
                  + " with 'changelog-producer' = 'full-compaction', where it defaults to 1.");

  public static final ConfigOption<Boolean> WRITE_ONLY =
      ConfigOption.key("write-only")
          .booleanType()
          .defaultValue(false)
          .description(
              "Writers never compact; a separate CALL sys.compact job does, possibly at the same"
                  + " time as the writers. Commits then skip snapshot and partition expiration"
                  + " too, as in Paimon.");

  public static final ConfigOption<Integer> COMPACTION_MIN_FILE_NUM =
      ConfigOption.key("compaction.min.file-num")
          .intType()
          .defaultValue(5)
          .description(
              "Append tables: a bucket with at least this many small files has them merged.");

  public static final ConfigOption<Integer> COMPACTION_MAX_FILE_NUM =
      ConfigOption.key("compaction.max.file-num")
          .intType()
          .defaultValue(50)
          .description("Append tables: the most small files one merge rewrites.");
}

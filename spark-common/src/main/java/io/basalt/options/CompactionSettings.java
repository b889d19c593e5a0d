package io.basalt.options;

import io.basalt.BasaltException;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * The compaction settings of one table, derived from its options once and validated.
 *
 * @param fullCompactionDeltaCommits null when unset
 */
public record CompactionSettings(
    int compactionTrigger,
    int stopTrigger,
    int numLevels,
    int maxSizeAmplificationPercent,
    int sizeRatio,
    @Nullable Integer fullCompactionDeltaCommits,
    boolean writeOnly,
    int minFileNum,
    int maxFileNum)
    implements Serializable {

  /** The highest level: full compaction writes here. */
  public int maxLevel() {
    return numLevels - 1;
  }

  /**
   * Reads and validates the settings.
   *
   * @throws BasaltException naming the option and value when a value is out of range
   */
  public static CompactionSettings of(Options options) {
    int trigger = options.get(CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER);
    positive(options, CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER, trigger);
    int stop =
        options.getOptional(CompactionOptions.NUM_SORTED_RUNS_STOP_TRIGGER).orElse(trigger + 3);
    if (stop < trigger) {
      throw OptionErrors.invalidOption(
          CompactionOptions.NUM_SORTED_RUNS_STOP_TRIGGER.key(),
          stop,
          options.owner(),
          String.format(
              "Invalid value '%s' for option '%s' on %s: it must be at least '%s' (%s). Fix: set"
                  + " '%s' >= %s or leave it unset.",
              stop,
              CompactionOptions.NUM_SORTED_RUNS_STOP_TRIGGER.key(),
              options.owner(),
              CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER.key(),
              trigger,
              CompactionOptions.NUM_SORTED_RUNS_STOP_TRIGGER.key(),
              trigger),
          null);
    }
    int levels = options.getOptional(CompactionOptions.NUM_LEVELS).orElse(trigger + 1);
    if (levels < 2) {
      throw OptionErrors.invalidOption(
          CompactionOptions.NUM_LEVELS.key(),
          levels,
          options.owner(),
          String.format(
              "Invalid value '%s' for option '%s' on %s: a merge tree needs at least 2 levels.",
              levels, CompactionOptions.NUM_LEVELS.key(), options.owner()),
          null);
    }
    int amplification = options.get(CompactionOptions.MAX_SIZE_AMPLIFICATION_PERCENT);
    positive(options, CompactionOptions.MAX_SIZE_AMPLIFICATION_PERCENT, amplification);
    int ratio = options.get(CompactionOptions.SIZE_RATIO);
    if (ratio < 0) {
      throw invalid(options, CompactionOptions.SIZE_RATIO, ratio, "a percentage >= 0");
    }
    Integer delta =
        options.getOptional(CompactionOptions.FULL_COMPACTION_DELTA_COMMITS).orElse(null);
    if (delta != null) {
      positive(options, CompactionOptions.FULL_COMPACTION_DELTA_COMMITS, delta);
    }
    int minFiles = options.get(CompactionOptions.COMPACTION_MIN_FILE_NUM);
    positive(options, CompactionOptions.COMPACTION_MIN_FILE_NUM, minFiles);
    int maxFiles = options.get(CompactionOptions.COMPACTION_MAX_FILE_NUM);
    if (maxFiles < Math.max(2, minFiles)) {
      throw invalid(
          options,
          CompactionOptions.COMPACTION_MAX_FILE_NUM,
          maxFiles,
          "at least 2 and at least " + CompactionOptions.COMPACTION_MIN_FILE_NUM.key());
    }
    return new CompactionSettings(
        trigger,
        stop,
        levels,
        amplification,
        ratio,
        delta,
        options.get(CompactionOptions.WRITE_ONLY),
        minFiles,
        maxFiles);
  }

  private static void positive(Options options, ConfigOption<Integer> option, int value) {
    if (value < 1) {
      throw invalid(options, option, value, "a positive integer");
    }
  }

  private static BasaltException invalid(
      Options options, ConfigOption<Integer> option, int value, String expected) {
    return OptionErrors.invalidOption(
        option.key(),
        value,
        options.owner(),
        String.format(
            "Invalid value '%s' for option '%s' on %s: expected %s. Fix: ALTER TABLE ... SET"
                + " TBLPROPERTIES ('%s' = '<value>') or leave it unset%s.",
            value,
            option.key(),
            options.owner(),
            expected,
            option.key(),
            option.defaultValue() == null ? "" : " (default " + option.defaultValue() + ")"),
        null);
  }
}

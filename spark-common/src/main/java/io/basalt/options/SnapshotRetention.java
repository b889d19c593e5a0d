package io.basalt.options;

import io.basalt.BasaltException;

/**
 * The snapshot retention of one table ({@link SnapshotOptions}), read once and validated: how many
 * snapshots expiration always keeps, the most it keeps, how long it keeps them, and how many one
 * run removes. A maximum set below the default minimum (10) lowers the minimum to it; both set
 * explicitly with the maximum below the minimum is an error.
 */
public record SnapshotRetention(int retainMin, int retainMax, long timeRetainedMillis, int limit) {

  /**
   * Reads and validates the retention options.
   *
   * @throws BasaltException naming the option and the value when a value is invalid or the minimum
   *     exceeds the maximum
   */
  public static SnapshotRetention of(Options options) {
    int min = options.get(SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN);
    atLeastOne(options, SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN, min);
    int max = options.get(SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX);
    atLeastOne(options, SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX, max);
    if (max < min && !options.contains(SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN)) {
      min = max; // a maximum below the default minimum lowers the minimum with it
    }
    if (max < min) {
      throw OptionErrors.invalidOption(
          SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX.key(),
          max,
          options.owner(),
          String.format(
              "Invalid snapshot retention on %s: '%s' (%s) is below '%s' (%s). Fix: set '%s' >= %s"
                  + " or lower '%s'.",
              options.owner(),
              SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX.key(),
              max,
              SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN.key(),
              min,
              SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX.key(),
              min,
              SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN.key()),
          null);
    }
    int limit = options.get(SnapshotOptions.SNAPSHOT_EXPIRE_LIMIT);
    atLeastOne(options, SnapshotOptions.SNAPSHOT_EXPIRE_LIMIT, limit);
    long time = options.get(SnapshotOptions.SNAPSHOT_TIME_RETAINED);
    return new SnapshotRetention(min, max, time, limit);
  }

  private static void atLeastOne(Options options, ConfigOption<Integer> option, int value) {
    if (value < 1) {
      throw OptionErrors.invalidOption(
          option.key(),
          value,
          options.owner(),
          String.format(
              "Invalid value '%s' for option '%s' on %s: expected an integer >= 1. Fix: set '%s'"
                  + " to at least 1 (default %s).",
              value, option.key(), options.owner(), option.key(), option.defaultValue()),
          null);
    }
  }
}

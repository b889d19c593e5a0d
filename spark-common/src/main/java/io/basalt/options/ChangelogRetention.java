package io.basalt.options;

/**
 * The changelog retention of one table ({@link ChangelogRetentionOptions}), read once and
 * validated, each value defaulting to the snapshot's ({@link SnapshotRetention}), as Paimon does.
 * When any value keeps changelog longer than its snapshot counterpart the changelog is
 * <em>decoupled</em>: expiring a snapshot keeps its changelog files and records the snapshot in the
 * table's {@code changelog/} directory, which changelog expiration later trims with these values. A
 * value shorter than the snapshot's changes nothing: a snapshot keeps its own changelog.
 *
 * @param retainMin the changelog of at least this many of the latest snapshots stays
 * @param retainMax the changelog of at most this many of the latest snapshots stays
 * @param timeRetainedMillis changelog younger than this stays (above the minimum)
 * @param limit the most changelogs one expiration run removes
 * @param decoupled whether changelog outlives snapshots
 */
public record ChangelogRetention(
    int retainMin, int retainMax, long timeRetainedMillis, int limit, boolean decoupled) {

  /**
   * Reads and validates the changelog retention of a table whose snapshot retention is {@code
   * snapshots}.
   *
   * @throws io.basalt.BasaltException naming the option, the value and the fix when a count is
   *     below 1 or not a number, a duration unreadable, or the minimum above the maximum
   */
  public static ChangelogRetention of(Options options, SnapshotRetention snapshots) {
    int min =
        options
            .getOptional(ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN)
            .orElse(snapshots.retainMin());
    atLeastOne(options, ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN, min);
    int max =
        options
            .getOptional(ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX)
            .orElse(snapshots.retainMax());
    atLeastOne(options, ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX, max);
    if (min > max) {
      throw OptionErrors.invalidOption(
          ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN.key(),
          min,
          options.owner(),
          String.format(
              "Invalid changelog retention on %s: '%s' (%s%s) is above '%s' (%s%s). Fix: set"
                  + " '%s' <= '%s', e.g. '%s' = '%s'.",
              options.owner(),
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN.key(),
              min,
              options.contains(ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN)
                  ? ""
                  : ", from 'snapshot.num-retained.min'",
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX.key(),
              max,
              options.contains(ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX)
                  ? ""
                  : ", from 'snapshot.num-retained.max'",
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MIN.key(),
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX.key(),
              ChangelogRetentionOptions.CHANGELOG_NUM_RETAINED_MAX.key(),
              min),
          null);
    }
    long time =
        options
            .getOptional(ChangelogRetentionOptions.CHANGELOG_TIME_RETAINED)
            .orElse(snapshots.timeRetainedMillis());
    boolean decoupled =
        max > snapshots.retainMax()
            || min > snapshots.retainMin()
            || time > snapshots.timeRetainedMillis();
    return new ChangelogRetention(min, max, time, snapshots.limit(), decoupled);
  }

  /** Reads the snapshot retention too; see {@link #of(Options, SnapshotRetention)}. */
  public static ChangelogRetention of(Options options) {
    return of(options, SnapshotRetention.of(options));
  }

  private static void atLeastOne(Options options, ConfigOption<Integer> option, int value) {
    if (value < 1) {
      throw OptionErrors.invalidOption(
          option.key(),
          value,
          options.owner(),
          String.format(
              "Invalid value '%s' for option '%s' on %s: expected an integer >= 1 (the changelog"
                  + " of the latest snapshot is always kept). Fix: set '%s' to at least 1, or"
                  + " unset it to follow the snapshot retention.",
              value, option.key(), options.owner(), option.key()),
          null);
    }
  }
}

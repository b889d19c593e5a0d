package io.basalt.options;

/**
 * Options of changelog retention: how long a primary-key table keeps its changelog, which may
 * outlive the snapshots that wrote it. Unset, each follows its snapshot counterpart. Read them
 * through {@link ChangelogRetention}.
 */
public final class ChangelogRetentionOptions {
  private ChangelogRetentionOptions() {}

  public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MIN =
      ConfigOption.key("changelog.num-retained.min")
          .intType()
          .description(
              "Expiration always keeps the changelog of at least this many of the latest"
                  + " snapshots (at least 1; default 'snapshot.num-retained.min'). When any"
                  + " changelog retention is longer than its snapshot counterpart, an expired"
                  + " snapshot's changelog is kept in the changelog/ directory; a shorter one"
                  + " has no effect, since a snapshot always keeps its own changelog.");

  public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MAX =
      ConfigOption.key("changelog.num-retained.max")
          .intType()
          .description(
              "Expiration keeps the changelog of at most this many of the latest snapshots"
                  + " (at least 'changelog.num-retained.min'; default"
                  + " 'snapshot.num-retained.max').");

  public static final ConfigOption<Long> CHANGELOG_TIME_RETAINED =
      ConfigOption.key("changelog.time-retained")
          .durationType()
          .description(
              "Changelog younger than this is kept, once more than 'changelog.num-retained.min'"
                  + " remain (default 'snapshot.time-retained').");
}

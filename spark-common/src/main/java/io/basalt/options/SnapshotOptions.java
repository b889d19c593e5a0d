package io.basalt.options;

/**
 * Options of snapshot retention, used by snapshot expiration after every commit and by {@code CALL
 * sys.expire_snapshots}. Read them through {@link SnapshotRetention}.
 */
public final class SnapshotOptions {
  private SnapshotOptions() {}

  public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
      ConfigOption.key("snapshot.num-retained.min")
          .intType()
          .defaultValue(10)
          .description(
              "Expiration always keeps at least this many of the latest snapshots (at least 1).");

  public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
      ConfigOption.key("snapshot.num-retained.max")
          .intType()
          .defaultValue(Integer.MAX_VALUE)
          .description(
              "Expiration keeps at most this many snapshots, however young they are. Set below"
                  + " the default minimum, it lowers the minimum with it.");

  public static final ConfigOption<Long> SNAPSHOT_TIME_RETAINED =
      ConfigOption.key("snapshot.time-retained")
          .durationType()
          .defaultValue(3_600_000L)
          .description(
              "Snapshots younger than this are kept; older ones expire once more than 'snapshot.num-retained.min' snapshots remain.");

  public static final ConfigOption<Integer> SNAPSHOT_EXPIRE_LIMIT =
      ConfigOption.key("snapshot.expire.limit")
          .intType()
          .defaultValue(50)
          .description(
              "The most snapshots one expiration run (after a commit or in a procedure call) removes.");
}

package io.basalt.options;

/** Options of the optimistic commit. */
public final class CommitOptions {
  private CommitOptions() {}

  public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
      ConfigOption.key("commit.max-retries")
          .intType()
          .atLeast(0)
          .defaultValue(10)
          .description("How often a commit that lost a race retries before it fails.");

  public static final ConfigOption<Long> COMMIT_MIN_RETRY_WAIT =
      ConfigOption.key("commit.min-retry-wait")
          .durationType()
          .defaultValue(10L)
          .description("Smallest backoff between commit retries.");

  public static final ConfigOption<Long> COMMIT_MAX_RETRY_WAIT =
      ConfigOption.key("commit.max-retry-wait")
          .durationType()
          .defaultValue(10_000L)
          .description("Largest backoff between commit retries.");
}

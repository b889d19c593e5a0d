package io.basalt.options;

/**
 * Options of postponed-bucket tables ({@code 'bucket' = '-2'}): how many buckets a compaction gives
 * a partition that has none yet, and whether batch writes skip the postponed stage.
 */
public final class PostponeOptions {
  private PostponeOptions() {}

  public static final ConfigOption<Integer> POSTPONE_DEFAULT_BUCKET_NUM =
      ConfigOption.key("postpone.default-bucket-num")
          .intType()
          .defaultValue(1)
          .description(
              "Postponed-bucket tables: the bucket count a compaction (or a fixed-bucket batch"
                  + " write) gives a partition that has no buckets yet; partitions that have"
                  + " buckets keep their count until sys.rescale changes it.");

  public static final ConfigOption<Boolean> POSTPONE_BATCH_WRITE_FIXED_BUCKET =
      ConfigOption.key("postpone.batch-write-fixed-bucket")
          .booleanType()
          .defaultValue(true)
          .description(
              "Postponed-bucket tables: batch INSERT INTO (without deletion vectors) and INSERT"
                  + " OVERWRITE write straight into each partition's buckets and are visible at"
                  + " commit. Other writes (and all writes when false) wait in bucket-postpone"
                  + " until CALL sys.compact.");
}

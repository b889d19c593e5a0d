package io.basalt.options;

/** Options of automatic tag creation and tag retention (Paimon's {@code tag.*} options). */
public final class TagOptions {
  private TagOptions() {}

  public static final ConfigOption<String> TAG_AUTOMATIC_CREATION =
      ConfigOption.key("tag.automatic-creation")
          .enumType("none", "process-time", "watermark", "batch")
          .defaultValue("none")
          .description(
              "Whether commits create tags by themselves. 'process-time': a tag per"
                  + " 'tag.creation-period', judged by commit time; 'watermark': judged by the"
                  + " snapshot's watermark (see 'end-input.watermark'); 'batch': every batch"
                  + " commit tags its snapshot as 'batch-write-<period>', replacing the tag of the"
                  + " same period.");

  public static final ConfigOption<String> TAG_CREATION_PERIOD =
      ConfigOption.key("tag.creation-period")
          .enumType("daily", "hourly", "two-hours")
          .defaultValue("daily")
          .description(
              "The period of automatic tags. A period's tag is created by the first commit after"
                  + " the period (plus 'tag.creation-delay') ended, on that commit's snapshot.");

  public static final ConfigOption<Long> TAG_CREATION_DELAY =
      ConfigOption.key("tag.creation-delay")
          .durationType()
          .defaultValue(0L)
          .description(
              "How long after a period ended its automatic tag may be created, for late data."
                  + " Must be shorter than one period.");

  public static final ConfigOption<String> TAG_PERIOD_FORMATTER =
      ConfigOption.key("tag.period-formatter")
          .enumType("with_dashes", "without_dashes", "without_dashes_and_spaces")
          .defaultValue("with_dashes")
          .description(
              "How automatic tags are named. Daily: '2024-12-04' with dashes, '20241204'"
                  + " otherwise. Hourly: '2024-12-04 10', '20241204 10' or '2024120410'."
                  + " Two-hours tags are always named like '2024-12-04 10'.");

  public static final ConfigOption<Integer> TAG_NUM_RETAINED_MAX =
      ConfigOption.key("tag.num-retained-max")
          .intType()
          .description(
              "The most automatic tags kept; beyond it the oldest automatic tags are deleted"
                  + " (with the files only they kept alive). Tags created by hand never count.");

  public static final ConfigOption<Long> TAG_DEFAULT_TIME_RETAINED =
      ConfigOption.key("tag.default-time-retained")
          .durationType()
          .description(
              "The time retained of automatic tags, stored in the tag file: a tag older than this"
                  + " is deleted by the next commit or by sys.expire_tags.");
}

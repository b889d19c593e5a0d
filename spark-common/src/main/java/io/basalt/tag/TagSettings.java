package io.basalt.tag;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import io.basalt.options.TagOptions;
import io.basalt.options.WriteOptions;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The tag options of a table ({@link TagOptions}), parsed and checked once.
 *
 * @param mode the value of {@code tag.automatic-creation}
 * @param numRetainedMax the most automatic tags kept, or null for no limit
 * @param defaultTimeRetained the retention of automatic tags, or null for none
 * @param watermarkZone the zone in which watermarks are local times
 */
public record TagSettings(
    String mode,
    TagPeriod period,
    Duration delay,
    @Nullable Integer numRetainedMax,
    @Nullable Duration defaultTimeRetained,
    ZoneId watermarkZone) {

  /** The prefix of the tags {@code batch} mode creates, followed by the period name. */
  public static final String BATCH_PREFIX = "batch-write-";

  /**
   * Reads and checks the tag options; called when a table is created or altered, so bad values fail
   * before anything is written.
   *
   * @throws BasaltException naming the option, the value, the table and the fix
   */
  public static TagSettings of(Options options) {
    TagPeriod period =
        TagPeriod.of(
            options.get(TagOptions.TAG_CREATION_PERIOD),
            options.get(TagOptions.TAG_PERIOD_FORMATTER));
    Duration delay = Duration.ofMillis(options.get(TagOptions.TAG_CREATION_DELAY));
    if (delay.compareTo(period.length()) >= 0) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' on %s must be shorter than one '%s' period ('%s' = %s). Fix:"
                  + " set '%s' below %s.",
              TagOptions.TAG_CREATION_DELAY.key(),
              options.raw(TagOptions.TAG_CREATION_DELAY.key()).orElse(""),
              options.owner(),
              TagOptions.TAG_CREATION_PERIOD.key(),
              period.periodName(),
              describe(period.length()),
              TagOptions.TAG_CREATION_DELAY.key(),
              describe(period.length())));
    }
    Integer numRetainedMax = options.getOptional(TagOptions.TAG_NUM_RETAINED_MAX).orElse(null);
    if (numRetainedMax != null && numRetainedMax < 1) {
      throw new BasaltException(
          String.format(
              "Invalid value '%s' for option '%s' on %s: expected at least 1. Fix: set a positive"
                  + " number, or remove the option to keep every automatic tag.",
              numRetainedMax, TagOptions.TAG_NUM_RETAINED_MAX.key(), options.owner()));
    }
    Duration retained =
        options
            .getOptional(TagOptions.TAG_DEFAULT_TIME_RETAINED)
            .map(Duration::ofMillis)
            .orElse(null);
    return new TagSettings(
        options.get(TagOptions.TAG_AUTOMATIC_CREATION),
        period,
        delay,
        numRetainedMax,
        retained,
        watermarkZone(options));
  }

  private static ZoneId watermarkZone(Options options) {
    String zone = options.get(WriteOptions.SINK_WATERMARK_TIME_ZONE);
    try {
      return ZoneId.of(zone);
    } catch (DateTimeException e) {
      throw new BasaltException(
          String.format(
              "Invalid value '%s' for option '%s' on %s: expected a time zone id such as 'UTC' or"
                  + " 'Europe/Berlin'.",
              zone, WriteOptions.SINK_WATERMARK_TIME_ZONE.key(), options.owner()),
          e);
    }
  }

  private static String describe(Duration length) {
    return length.toHours() % 24 == 0 ? length.toDays() + " d" : length.toHours() + " h";
  }

  /** Whether commits create tags ({@code tag.automatic-creation} is not 'none'). */
  public boolean createsTags() {
    return !"none".equals(mode);
  }

  public boolean batchMode() {
    return "batch".equals(mode);
  }

  /**
   * The period start an automatic tag name stands for, or empty when {@code name} is no automatic
   * tag name of this table's mode and format.
   */
  public Optional<LocalDateTime> periodOf(String name) {
    if (batchMode()) {
      return name.startsWith(BATCH_PREFIX)
          ? period.parse(name.substring(BATCH_PREFIX.length()))
          : Optional.empty();
    }
    return period.parse(name);
  }

  /** The name of the automatic tag of the period starting at {@code periodStart}. */
  public String tagName(LocalDateTime periodStart) {
    return (batchMode() ? BATCH_PREFIX : "") + period.name(periodStart);
  }
}

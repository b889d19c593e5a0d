package io.basalt.tag;

import io.basalt.BasaltException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Optional;

/**
 * The period of automatic tags ({@code tag.creation-period}) with the name format {@code
 * tag.period-formatter} selects: computes which period a local time belongs to and names periods by
 * their start, e.g. daily {@code 2024-12-04} or hourly {@code 2024-12-04 10}, as Paimon names them.
 * Periods are aligned to local midnight (two-hours periods start at even hours).
 */
public final class TagPeriod {
  private final String periodName;
  private final Duration length;
  private final DateTimeFormatter format;
  private final boolean daily;

  private TagPeriod(String periodName, Duration length, String pattern, boolean daily) {
    this.periodName = periodName;
    this.length = length;
    this.format =
        DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);
    this.daily = daily;
  }

  /**
   * The period of option values {@code period} ('daily', 'hourly', 'two-hours') and {@code
   * formatter} ('with_dashes', 'without_dashes', 'without_dashes_and_spaces').
   *
   * @throws BasaltException for other values
   */
  public static TagPeriod of(String period, String formatter) {
    // with_dashes: '2024-12-04 10'; without_dashes: '20241204 10'; and spaces: '2024120410'
    boolean dashes = "with_dashes".equals(formatter);
    boolean spaces = dashes || "without_dashes".equals(formatter);
    if (!spaces && !"without_dashes_and_spaces".equals(formatter)) {
      throw new BasaltException("Unknown tag period formatter '" + formatter + "'");
    }
    return switch (period) {
      case "daily" ->
          new TagPeriod(period, Duration.ofDays(1), dashes ? "uuuu-MM-dd" : "uuuuMMdd", true);
      case "hourly" ->
          new TagPeriod(
              period,
              Duration.ofHours(1),
              dashes ? "uuuu-MM-dd HH" : spaces ? "uuuuMMdd HH" : "uuuuMMddHH",
              false);
        // Paimon names two-hours tags with dashes whatever the formatter says
      case "two-hours" -> new TagPeriod(period, Duration.ofHours(2), "uuuu-MM-dd HH", false);
      default -> throw new BasaltException("Unknown tag creation period '" + period + "'");
    };
  }

  /** The option value this period came from, e.g. {@code daily}. */
  public String periodName() {
    return periodName;
  }

  public Duration length() {
    return length;
  }

  /** The start of the period {@code time} falls in. */
  public LocalDateTime periodStart(LocalDateTime time) {
    long seconds = time.toEpochSecond(ZoneOffset.UTC);
    long size = length.getSeconds();
    return LocalDateTime.ofEpochSecond(Math.floorDiv(seconds, size) * size, 0, ZoneOffset.UTC);
  }

  /** The start of the period before the one {@code time} falls in: the last one that ended. */
  public LocalDateTime previousPeriodStart(LocalDateTime time) {
    return periodStart(time).minus(length);
  }

  /** The start of the period after the one starting at {@code periodStart}. */
  public LocalDateTime next(LocalDateTime periodStart) {
    return periodStart.plus(length);
  }

  /** The tag name of the period starting at {@code periodStart}. */
  public String name(LocalDateTime periodStart) {
    return format.format(periodStart);
  }

  /** The period start a tag name stands for, or empty when it is no name of this format. */
  public Optional<LocalDateTime> parse(String name) {
    TemporalAccessor parsed;
    try {
      parsed = format.parse(name);
    } catch (DateTimeParseException e) {
      return Optional.empty(); // not an automatic tag name: an expected outcome, not an error
    }
    LocalDateTime start =
        LocalDateTime.of(
            parsed.get(ChronoField.YEAR),
            parsed.get(ChronoField.MONTH_OF_YEAR),
            parsed.get(ChronoField.DAY_OF_MONTH),
            daily ? 0 : parsed.get(ChronoField.HOUR_OF_DAY),
            0);
    return Optional.of(start);
  }
}

package io.basalt.operation.partition;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * Reads a partition's time from its values (the {@code values-time} strategy): the pattern builds a
 * text from the values ({@code $column} placeholders; the first column's value without a pattern),
 * which the formatter parses as a date-time, or as a date at midnight. Without a formatter, {@code
 * yyyy-M-d[ H:m:s[.fraction]]} is accepted.
 */
final class PartitionTimeExtractor {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

  private static final DateTimeFormatter DEFAULT =
      new DateTimeFormatterBuilder()
          .appendValue(ChronoField.YEAR, 1, 10, SignStyle.NORMAL)
          .appendLiteral('-')
          .appendValue(ChronoField.MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL)
          .appendLiteral('-')
          .appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NORMAL)
          .optionalStart()
          .appendLiteral(' ')
          .appendValue(ChronoField.HOUR_OF_DAY, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 1, 2, SignStyle.NORMAL)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .optionalEnd()
          .toFormatter(Locale.ROOT)
          .withResolverStyle(ResolverStyle.STRICT); // 2024-02-30 is no date

  private final List<String> keys;
  @Nullable private final String pattern;
  @Nullable private final DateTimeFormatter formatter;

  /**
   * @param keys the partition columns, in order
   * @param pattern validated already ({@code PartitionExpiration.checkPattern}), or null
   * @param formatter validated already, or null for the default forms
   */
  PartitionTimeExtractor(List<String> keys, @Nullable String pattern, @Nullable String formatter) {
    this.keys = List.copyOf(keys);
    this.pattern = pattern;
    this.formatter = formatter == null ? null : DateTimeFormatter.ofPattern(formatter, Locale.ROOT);
  }

  /**
   * The time of the partition whose values, as text, are {@code values} (in column order; null for
   * a null value), or null when they do not hold a time in the configured form.
   */
  @Nullable
  LocalDateTime extract(List<String> values) {
    String text = text(values);
    if (text == null) {
      return null;
    }
    DateTimeFormatter parser = formatter == null ? DEFAULT : formatter;
    try {
      return LocalDateTime.parse(text, parser);
    } catch (DateTimeParseException notADateTime) {
      try {
        return LocalDate.parse(text, parser).atStartOfDay();
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }

  @Nullable
  private String text(List<String> values) {
    if (pattern == null) {
      return values.isEmpty() ? null : values.get(0);
    }
    Matcher matcher = PLACEHOLDER.matcher(pattern);
    StringBuilder text = new StringBuilder();
    while (matcher.find()) {
      int index = keys.indexOf(matcher.group(1));
      if (index < 0 || values.get(index) == null) {
        return null;
      }
      matcher.appendReplacement(text, Matcher.quoteReplacement(values.get(index)));
    }
    matcher.appendTail(text);
    return text.toString();
  }
}

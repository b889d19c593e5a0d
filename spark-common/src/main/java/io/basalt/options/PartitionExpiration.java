package io.basalt.options;

import io.basalt.BasaltException;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * The partition expiration settings of one table ({@link PartitionOptions}), read once and
 * validated against its partition columns.
 *
 * @param expirationMillis partitions older than this expire; null when expiration is off
 * @param strategy {@link PartitionOptions#VALUES_TIME} or {@link PartitionOptions#UPDATE_TIME}
 * @param formatter a DateTimeFormatter pattern, or null for the default forms
 * @param pattern the time text with {@code $column} placeholders, or null for the first column
 */
public record PartitionExpiration(
    @Nullable Long expirationMillis,
    long checkIntervalMillis,
    String strategy,
    @Nullable String formatter,
    @Nullable String pattern,
    int maxExpires) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

  /** Whether partitions expire at all ({@code partition.expiration-time} is set). */
  public boolean enabled() {
    return expirationMillis != null;
  }

  /**
   * Reads and validates the options of a table partitioned by {@code partitionKeys}.
   *
   * @throws BasaltException naming the option, the value and the fix when a value is invalid, or
   *     when expiration is set on an unpartitioned table
   */
  public static PartitionExpiration of(Options options, List<String> partitionKeys) {
    Long expiration = options.getOptional(PartitionOptions.PARTITION_EXPIRATION_TIME).orElse(null);
    long interval = options.get(PartitionOptions.PARTITION_EXPIRATION_CHECK_INTERVAL);
    String strategy = options.get(PartitionOptions.PARTITION_EXPIRATION_STRATEGY);
    String formatter =
        options.getOptional(PartitionOptions.PARTITION_TIMESTAMP_FORMATTER).orElse(null);
    String pattern = options.getOptional(PartitionOptions.PARTITION_TIMESTAMP_PATTERN).orElse(null);
    int maxExpires = options.get(PartitionOptions.PARTITION_EXPIRATION_MAX_NUM);
    String owner = options.owner();
    checkFormatter(
        formatter, "option '" + PartitionOptions.PARTITION_TIMESTAMP_FORMATTER.key() + "'", owner);
    checkPattern(
        pattern,
        partitionKeys,
        "option '" + PartitionOptions.PARTITION_TIMESTAMP_PATTERN.key() + "'",
        owner);
    checkMaxExpires(
        maxExpires, "option '" + PartitionOptions.PARTITION_EXPIRATION_MAX_NUM.key() + "'", owner);
    if (expiration != null && partitionKeys.isEmpty()) {
      throw OptionErrors.invalidOption(
          PartitionOptions.PARTITION_EXPIRATION_TIME.key(),
          options.raw(PartitionOptions.PARTITION_EXPIRATION_TIME.key()).orElse(""),
          owner,
          String.format(
              "Option '%s' is set on %s, which has no partition columns. Fix: partition the table"
                  + " (PARTITIONED BY) or remove the option.",
              PartitionOptions.PARTITION_EXPIRATION_TIME.key(), owner),
          null);
    }
    return new PartitionExpiration(expiration, interval, strategy, formatter, pattern, maxExpires);
  }

  /**
   * Checks that {@code formatter} is a valid DateTimeFormatter pattern (null is fine).
   *
   * @param label what holds the value, for the message, e.g. {@code option 'x'}
   * @param owner what it belongs to, e.g. {@code table db.t}
   */
  public static void checkFormatter(@Nullable String formatter, String label, String owner) {
    if (formatter == null) {
      return;
    }
    try {
      DateTimeFormatter.ofPattern(formatter, Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw OptionErrors.invalidValue(
          label,
          formatter,
          owner,
          String.format(
              "Invalid value '%s' for %s on %s: %s. Fix: use a java.time DateTimeFormatter"
                  + " pattern such as 'yyyyMMdd' or 'yyyy-MM-dd HH'.",
              formatter, label, owner, e.getMessage()),
          e);
    }
  }

  /** Checks that every {@code $column} in {@code pattern} is one of {@code partitionKeys}. */
  public static void checkPattern(
      @Nullable String pattern, List<String> partitionKeys, String label, String owner) {
    if (pattern == null) {
      return;
    }
    Matcher matcher = PLACEHOLDER.matcher(pattern);
    boolean any = false;
    while (matcher.find()) {
      any = true;
      if (!partitionKeys.contains(matcher.group(1))) {
        throw OptionErrors.invalidValue(
            label,
            pattern,
            owner,
            String.format(
                "Invalid value '%s' for %s on %s: '$%s' is no partition column; the partition"
                    + " columns are %s. Fix: write '$<column>' for partition columns only.",
                pattern,
                label,
                owner,
                matcher.group(1),
                partitionKeys.isEmpty() ? "none" : String.join(", ", partitionKeys)),
            null);
      }
    }
    if (!any) {
      throw OptionErrors.invalidValue(
          label,
          pattern,
          owner,
          String.format(
              "Invalid value '%s' for %s on %s: it names no partition column. Fix: use"
                  + " '$<column>' placeholders, e.g. '$%s'.",
              pattern, label, owner, partitionKeys.isEmpty() ? "dt" : partitionKeys.get(0)),
          null);
    }
  }

  /** Checks that {@code maxExpires} is at least 1. */
  public static void checkMaxExpires(int maxExpires, String label, String owner) {
    if (maxExpires < 1) {
      throw OptionErrors.invalidValue(
          label,
          maxExpires,
          owner,
          String.format(
              "Invalid value '%s' for %s on %s: expected an integer >= 1.",
              maxExpires, label, owner),
          null);
    }
  }
}

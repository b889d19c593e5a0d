package io.basalt.format;

import javax.annotation.Nullable;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Statistics of one top-level column of a data file, as Spark internal values ({@code UTF8String},
 * {@code Decimal}, {@code Integer} days, {@code Long} micros, {@code byte[]}, ...).
 *
 * @param min the smallest non-null value, or null when unknown (complex types, all-null columns)
 * @param max the largest non-null value, or null when unknown
 * @param nullCount the number of nulls, or null when unknown
 */
public record ColumnStats(@Nullable Object min, @Nullable Object max, @Nullable Long nullCount) {

  /** Stats that say nothing. */
  public static final ColumnStats UNKNOWN = new ColumnStats(null, null, null);

  /**
   * Applies Paimon's {@code truncate(length)} stats mode: string bounds longer than {@code length}
   * characters are cut to {@code length}. A cut maximum has its last character incremented so it
   * still bounds the column, and becomes null (unknown) when that character cannot be incremented.
   * Non-string stats are returned unchanged.
   */
  public static ColumnStats truncate(ColumnStats stats, int length) {
    if (length < 1) {
      throw new IllegalArgumentException("Invalid truncate length " + length + ": must be >= 1");
    }
    Object min = stats.min;
    Object max = stats.max;
    if (min instanceof UTF8String s && s.numChars() > length) {
      min = s.substring(0, length);
    }
    if (max instanceof UTF8String s && s.numChars() > length) {
      max = incrementLastChar(s.substring(0, length).toString());
    }
    return new ColumnStats(min, max, stats.nullCount);
  }

  @Nullable
  private static UTF8String incrementLastChar(String prefix) {
    int last = prefix.offsetByCodePoints(prefix.length(), -1);
    int codePoint = prefix.codePointAt(last);
    if (codePoint >= Character.MAX_CODE_POINT) {
      return null;
    }
    int next = codePoint + 1;
    if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
      // surrogates are not characters on their own; jump past the block
      next = Character.MAX_SURROGATE + 1;
    }
    return UTF8String.fromString(prefix.substring(0, last) + new String(Character.toChars(next)));
  }
}

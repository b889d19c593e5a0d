package io.basalt.predicate;

import javax.annotation.Nullable;

/**
 * What is known about one column over a set of rows: min and max as Spark internal values (null
 * when unknown) and the null count (null when unknown).
 */
public record ColumnStatistics(
    @Nullable Object min, @Nullable Object max, @Nullable Long nullCount) {

  /** Nothing is known. */
  public static final ColumnStatistics UNKNOWN = new ColumnStatistics(null, null, null);
}

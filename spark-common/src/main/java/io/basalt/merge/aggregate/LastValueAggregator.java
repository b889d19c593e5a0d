package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/**
 * {@code last_value} takes every newer input, null included; {@code last_non_null_value} takes the
 * newer input unless it is null. Retraction clears the value: {@code last_value} always, {@code
 * last_non_null_value} when the retracted value is not null (as Paimon defines them).
 */
final class LastValueAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final boolean skipNulls;

  LastValueAggregator(AggregatorContext context, boolean skipNulls) {
    super(context);
    this.skipNulls = skipNulls;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (skipNulls && input == null) {
      return accumulator;
    }
    return Values.copy(input);
  }

  @Override
  public boolean supportsRetract() {
    return true;
  }

  @Nullable
  @Override
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    if (skipNulls && input == null) {
      return accumulator;
    }
    return null;
  }
}

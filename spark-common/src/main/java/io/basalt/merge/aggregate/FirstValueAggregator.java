package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/**
 * {@code first_value} keeps the oldest input even when it is null; {@code first_non_null_value}
 * keeps the oldest non-null input. Neither can retract: the first value is gone once replaced.
 */
final class FirstValueAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final boolean skipNulls;
  private boolean initialized;

  FirstValueAggregator(AggregatorContext context, boolean skipNulls) {
    super(context);
    this.skipNulls = skipNulls;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (initialized || (skipNulls && input == null)) {
      return accumulator;
    }
    initialized = true;
    return Values.copy(input);
  }

  @Override
  public void reset() {
    initialized = false;
  }
}

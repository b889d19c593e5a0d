package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/** {@code bool_and} and {@code bool_or} over non-null inputs; a null input changes nothing. */
final class BoolAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final boolean and;

  BoolAggregator(AggregatorContext context, boolean and) {
    super(context);
    this.and = and;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    if (accumulator == null) {
      return input;
    }
    boolean a = (Boolean) accumulator;
    boolean b = (Boolean) input;
    return and ? a && b : a || b;
  }
}

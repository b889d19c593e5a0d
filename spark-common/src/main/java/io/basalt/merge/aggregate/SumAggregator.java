package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/**
 * {@code sum}: adds non-null inputs; a null input leaves the sum unchanged. Retraction subtracts,
 * and a retraction with no sum yet starts from the negated input.
 */
final class SumAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final Arithmetic arithmetic;

  SumAggregator(AggregatorContext context) {
    super(context);
    this.arithmetic = Arithmetic.of(context.type());
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    // The arithmetic always builds a new value, so only a first input needs copying.
    return accumulator == null ? Values.copy(input) : arithmetic.add(accumulator, input);
  }

  @Override
  public boolean supportsRetract() {
    return true;
  }

  @Nullable
  @Override
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    return accumulator == null ? arithmetic.negate(input) : arithmetic.subtract(accumulator, input);
  }
}

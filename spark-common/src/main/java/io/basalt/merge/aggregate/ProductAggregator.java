package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/**
 * {@code product}: multiplies non-null inputs; a null input leaves the product unchanged.
 * Retraction divides (integral types truncate); as in Paimon, retracting from an empty product
 * yields the retracted value itself. Retracting a zero yields null, since no value can be
 * recovered.
 */
final class ProductAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final Arithmetic arithmetic;

  ProductAggregator(AggregatorContext context) {
    super(context);
    this.arithmetic = Arithmetic.of(context.type());
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    return accumulator == null ? Values.copy(input) : arithmetic.multiply(accumulator, input);
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
    return accumulator == null ? Values.copy(input) : arithmetic.divide(accumulator, input);
  }
}

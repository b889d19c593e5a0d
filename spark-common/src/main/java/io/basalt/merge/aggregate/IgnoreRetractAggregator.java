package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/**
 * Wraps an aggregator for a column with {@code fields.<f>.ignore-retract}=true: inputs aggregate as
 * usual and retractions leave the value unchanged.
 */
final class IgnoreRetractAggregator extends FieldAggregator {
  private static final long serialVersionUID = 1L;

  private final FieldAggregator delegate;

  IgnoreRetractAggregator(FieldAggregator delegate) {
    super(delegate.functionName(), delegate.type());
    this.delegate = delegate;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    return delegate.agg(accumulator, input);
  }

  @Override
  public boolean supportsRetract() {
    return true;
  }

  @Nullable
  @Override
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    return accumulator;
  }

  @Override
  public void reset() {
    delegate.reset();
  }
}

package io.basalt.merge.aggregate;

import javax.annotation.Nullable;

/** A field aggregator that knows its table and column, so its errors can name them. */
abstract class BaseAggregator extends FieldAggregator {
  private static final long serialVersionUID = 1L;

  protected final String table;
  protected final String field;

  BaseAggregator(AggregatorContext context) {
    super(context.functionName(), context.type());
    this.table = context.table();
    this.field = context.field();
  }

  @Nullable
  @Override
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    throw AggregateErrors.retractNotSupported(table, field, functionName());
  }
}

package io.basalt.merge.aggregate;

import java.util.Comparator;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.util.CollationFactory;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code max} and {@code min}: keep the greatest (or least) non-null input. Every supported
 * internal value is {@link Comparable} (boxed numbers, Decimal, UTF8String, Integer dates, Long
 * timestamps); strings with a non-binary collation compare by their collation.
 */
final class ExtremeValueAggregator extends BaseAggregator {
  private static final long serialVersionUID = 1L;

  private final boolean max;
  // -1 unless the column is a string with a collation that does not order by bytes.
  private final int collationId;
  @Nullable private transient Comparator<UTF8String> collationOrder;

  ExtremeValueAggregator(AggregatorContext context, boolean max) {
    super(context);
    this.max = max;
    this.collationId =
        context.type() instanceof StringType s && !s.supportsBinaryOrdering()
            ? s.collationId()
            : -1;
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null) {
      return accumulator;
    }
    if (accumulator == null) {
      return Values.copy(input);
    }
    int cmp = compare(input, accumulator);
    return (max ? cmp > 0 : cmp < 0) ? Values.copy(input) : accumulator;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private int compare(Object a, Object b) {
    if (collationId >= 0) {
      if (collationOrder == null) {
        collationOrder = CollationFactory.fetchCollation(collationId).comparator;
      }
      return collationOrder.compare((UTF8String) a, (UTF8String) b);
    }
    return ((Comparable) a).compareTo(b);
  }
}

package io.basalt.merge.aggregate;

import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;

/**
 * Folds the values of one column across the versions of a primary key, oldest first: the
 * aggregation merge engine runs one per column, partial-update one per column of a sequence group.
 * Values are Spark's internal representation of the column type (UTF8String, Decimal, ArrayData,
 * MapData, InternalRow, byte[], boxed primitives).
 *
 * <p>Inputs may live in reused row buffers and are valid only during the call: an aggregator that
 * keeps an input (or part of it) in its result copies it first. An aggregator holds no state across
 * keys except what {@link #reset()} clears.
 */
public abstract class FieldAggregator implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String functionName;
  private final DataType type;

  protected FieldAggregator(String functionName, DataType type) {
    this.functionName = functionName;
    this.type = type;
  }

  /** The function name as users write it, e.g. {@code sum}. */
  public String functionName() {
    return functionName;
  }

  public DataType type() {
    return type;
  }

  /**
   * Combines the accumulated value with a newer input (+I or +U row).
   *
   * @param accumulator the value so far for this key (null before the first input, or a null value)
   * @param input the newer value, possibly null
   * @return the new accumulated value, owned by the caller (copied where it came from {@code
   *     input})
   */
  @Nullable
  public abstract Object agg(@Nullable Object accumulator, @Nullable Object input);

  /** Whether {@link #retract} is supported (Paimon's retraction-capable functions). */
  public boolean supportsRetract() {
    return false;
  }

  /**
   * Removes a retracted input (-U or -D row) from the accumulated value.
   *
   * @throws UnsupportedOperationException when {@link #supportsRetract()} is false
   */
  @Nullable
  public Object retract(@Nullable Object accumulator, @Nullable Object input) {
    throw new UnsupportedOperationException(
        "Aggregate function " + functionName + " does not support retraction");
  }

  /** Clears any per-key state before the first version of the next key. */
  public void reset() {}
}

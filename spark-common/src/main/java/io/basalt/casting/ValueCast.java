package io.basalt.casting;

/**
 * Converts one non-null value of a column's old type, in Spark's internal form ({@code UTF8String},
 * boxed primitives, {@code Decimal}, days, micros, {@code ArrayData}, ...), into its new type. A
 * null result means the value has no representation in the new type (a DECIMAL that overflows its
 * precision), which Paimon reads as null too. Values that cannot be converted at all (STRING 'abc'
 * to INT) throw.
 */
@FunctionalInterface
public interface ValueCast {
  Object cast(Object value);
}

package io.basalt.merge.aggregate;

import io.basalt.BasaltException;
import org.apache.spark.sql.types.DataType;

/** The user-facing errors of field aggregation, each naming the table, column and the fix. */
final class AggregateErrors {
  private AggregateErrors() {}

  static BasaltException unknownFunction(String table, String field, String function) {
    return new BasaltException(
        String.format(
            "Unknown aggregate function '%s' for column '%s' of table %s. Supported functions: %s."
                + " Fix: set 'fields.%s.aggregate-function' to one of them.",
            function, field, table, String.join(", ", FieldAggregators.functionNames()), field));
  }

  static BasaltException unsupportedType(
      String table, String field, String function, DataType type, String supportedTypes) {
    return new BasaltException(
        String.format(
            "Aggregate function '%s' does not support column '%s' of type %s in table %s: it"
                + " supports %s. Fix: choose another function in 'fields.%s.aggregate-function'"
                + " or change the column type.",
            function, field, type.sql(), table, supportedTypes, field));
  }

  static UnsupportedOperationException retractNotSupported(
      String table, String field, String function) {
    return new UnsupportedOperationException(
        String.format(
            "Aggregate function '%s' of column '%s' in table %s cannot retract a -U/-D row. Fix:"
                + " set 'fields.%s.ignore-retract'='true' to skip retractions for this column,"
                + " or set 'ignore-delete'='true' to drop -U/-D rows.",
            function, field, table, field));
  }

  static BasaltException nestedKeyNotApplicable(AggregatorContext context) {
    return new BasaltException(
        String.format(
            "Option '%s' of table %s applies only to columns of type ARRAY<STRUCT<...>> aggregated"
                + " with nested_update or nested_partial_update, but column '%s' is %s with"
                + " function '%s'. Fix: remove the option or set 'fields.%s.aggregate-function' to"
                + " nested_update.",
            context.fieldKey(NestedKey.OPTION),
            context.table(),
            context.field(),
            context.type().sql(),
            context.functionName(),
            context.field()));
  }
}

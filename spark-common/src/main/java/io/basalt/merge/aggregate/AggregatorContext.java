package io.basalt.merge.aggregate;

import io.basalt.options.ConfigOption;
import io.basalt.options.Options;
import org.apache.spark.sql.types.DataType;

/**
 * What an aggregator is built from: the column, its type, the canonical function name and the
 * table's options, read through per-field {@link ConfigOption}s so bad values get the usual
 * message.
 */
record AggregatorContext(
    String table, String field, DataType type, String functionName, Options options) {

  /** {@code fields.<field>.<suffix>} as a typed boolean option. */
  boolean fieldFlag(String suffix, boolean defaultValue) {
    ConfigOption<Boolean> option =
        ConfigOption.key(fieldKey(suffix))
            .booleanType()
            .defaultValue(defaultValue)
            .description("per-field flag");
    return options.get(option);
  }

  /** {@code fields.<field>.<suffix>} as a string, or {@code defaultValue} when unset. */
  String fieldString(String suffix, String defaultValue) {
    return options.raw(fieldKey(suffix)).orElse(defaultValue);
  }

  String fieldKey(String suffix) {
    return "fields." + field + "." + suffix;
  }
}

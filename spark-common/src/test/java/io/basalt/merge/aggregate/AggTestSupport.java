package io.basalt.merge.aggregate;

import io.basalt.options.Options;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.types.DataType;

/** Builds aggregators for tests and folds inputs through them. */
final class AggTestSupport {
  static final String TABLE = "db.t";

  private AggTestSupport() {}

  static FieldAggregator create(String function, DataType type, String... options) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return FieldAggregators.create(TABLE, "f", type, function, new Options(map, "table " + TABLE));
  }

  /** Folds {@code inputs} oldest first, starting from no value. */
  static Object fold(FieldAggregator aggregator, Object... inputs) {
    aggregator.reset();
    Object acc = null;
    for (Object input : inputs) {
      acc = aggregator.agg(acc, input);
    }
    return acc;
  }
}

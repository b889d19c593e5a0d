package io.basalt.merge.aggregate;

import io.basalt.options.Options;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.spark.sql.types.DataType;

/**
 * Builds the {@link FieldAggregator} of a column from its function name ({@code
 * fields.<f>.aggregate-function}) and the table's options. The merge engines call this when a table
 * is created or altered, so a bad function or type fails before anything is written, and again for
 * each read or compaction.
 */
public final class FieldAggregators {
  /** Accepted as another spelling of {@code first_non_null_value}, as in Paimon. */
  static final String FIRST_NOT_NULL_VALUE = "first_not_null_value";

  private static final Set<String> NESTED_FUNCTIONS =
      Set.of("nested_update", "nested_partial_update");

  private static final Map<String, Definition> FUNCTIONS = new LinkedHashMap<>();

  static {
    register("sum", TypeSupport.NUMERIC, SumAggregator::new);
    register("product", TypeSupport.NUMERIC, ProductAggregator::new);
    register("max", TypeSupport.COMPARABLE, c -> new ExtremeValueAggregator(c, true));
    register("min", TypeSupport.COMPARABLE, c -> new ExtremeValueAggregator(c, false));
    register("first_value", TypeSupport.ANY, c -> new FirstValueAggregator(c, false));
    register("first_non_null_value", TypeSupport.ANY, c -> new FirstValueAggregator(c, true));
    register("last_value", TypeSupport.ANY, c -> new LastValueAggregator(c, false));
    register("last_non_null_value", TypeSupport.ANY, c -> new LastValueAggregator(c, true));
    register("bool_and", TypeSupport.BOOLEAN, c -> new BoolAggregator(c, true));
    register("bool_or", TypeSupport.BOOLEAN, c -> new BoolAggregator(c, false));
    register("listagg", TypeSupport.STRING, ListAggregator::new);
    register("rbm32", TypeSupport.BINARY, c -> new RoaringBitmapAggregator(c, false));
    register("rbm64", TypeSupport.BINARY, c -> new RoaringBitmapAggregator(c, true));
    register("nested_update", TypeSupport.ARRAY_OF_STRUCT, NestedUpdateAggregator::new);
    register(
        "nested_partial_update", TypeSupport.ARRAY_OF_STRUCT, NestedPartialUpdateAggregator::new);
    register("collect", TypeSupport.ARRAY, CollectAggregator::new);
    register("merge_map", TypeSupport.MAP, MergeMapAggregator::new);
  }

  private FieldAggregators() {}

  /**
   * The aggregator of one column.
   *
   * @param table the table name, for messages
   * @param field the column name
   * @param type the column type
   * @param functionName the function, case-insensitive ({@code first_not_null_value} is an alias of
   *     {@code first_non_null_value})
   * @param options the table's options, carrying the {@code fields.<field>.*} settings
   * @return a new aggregator, owned by the caller
   * @throws io.basalt.BasaltException when the function is unknown, does not support the type, or
   *     one of its options is invalid
   */
  public static FieldAggregator create(
      String table, String field, DataType type, String functionName, Options options) {
    String name = canonicalName(functionName);
    Definition definition = FUNCTIONS.get(name);
    if (definition == null) {
      throw AggregateErrors.unknownFunction(table, field, functionName);
    }
    if (!definition.types().accepts(type)) {
      throw AggregateErrors.unsupportedType(
          table, field, name, type, definition.types().description());
    }
    AggregatorContext context = new AggregatorContext(table, field, type, name, options);
    if (!NESTED_FUNCTIONS.contains(name)
        && options.raw(context.fieldKey(NestedKey.OPTION)).isPresent()) {
      throw AggregateErrors.nestedKeyNotApplicable(context);
    }
    FieldAggregator aggregator = definition.factory().apply(context);
    return context.fieldFlag("ignore-retract", false)
        ? new IgnoreRetractAggregator(aggregator)
        : aggregator;
  }

  /** Whether {@code functionName} names an aggregate function (any case, aliases included). */
  public static boolean isKnown(String functionName) {
    return functionName != null && FUNCTIONS.containsKey(canonicalName(functionName));
  }

  /** The canonical function names, in documentation order. */
  static List<String> functionNames() {
    return new ArrayList<>(FUNCTIONS.keySet());
  }

  private static String canonicalName(String functionName) {
    String name = functionName.trim().toLowerCase(Locale.ROOT);
    return name.equals(FIRST_NOT_NULL_VALUE) ? "first_non_null_value" : name;
  }

  private static void register(
      String name, TypeSupport types, Function<AggregatorContext, FieldAggregator> factory) {
    FUNCTIONS.put(name, new Definition(types, factory));
  }

  private record Definition(
      TypeSupport types, Function<AggregatorContext, FieldAggregator> factory) {}
}

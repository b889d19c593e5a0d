package io.basalt.spark.procedures;

import io.basalt.data.RowComparator;
import io.basalt.options.Durations;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;

/**
 * The validated arguments of {@code CALL sys.compact}.
 *
 * @param table the table name as given
 * @param partitions the {@code partitions} spec, or null
 * @param full whether to compact fully ({@code compact_strategy 'full'}, the default)
 * @param order how to re-cluster append tables
 * @param orderBy the columns to order by (empty for {@link OrderStrategy#NONE})
 * @param where the {@code where} condition on partition columns, or null
 * @param options table options for this compaction ({@code options => 'k1=v1,k2=v2'})
 * @param partitionIdleMillis with it, only partitions whose newest file is at least this old are
 *     compacted ({@code partition_idle_time}); null compacts every selected partition
 */
record CompactArguments(
    String table,
    @Nullable String partitions,
    boolean full,
    OrderStrategy order,
    List<String> orderBy,
    @Nullable String where,
    Map<String, String> options,
    @Nullable Long partitionIdleMillis) {

  /** The values of {@code compact_strategy}. */
  enum CompactStrategy {
    FULL,
    MINOR
  }

  /** The values of {@code order_strategy}. */
  enum OrderStrategy {
    NONE,
    ORDER,
    ZORDER
  }

  CompactArguments {
    orderBy = List.copyOf(orderBy);
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  /** Parses the procedure's input row and checks what does not need the table. */
  static CompactArguments parse(InternalRow input) {
    String table = input.getUTF8String(0).toString();
    String partitions = blankToNull(string(input, 1));
    String strategyText = blankToNull(string(input, 2));
    OrderStrategy order =
        parseEnum("order_strategy", string(input, 3), OrderStrategy.class, OrderStrategy.NONE);
    CompactStrategy strategy =
        parseEnum("compact_strategy", strategyText, CompactStrategy.class, CompactStrategy.FULL);
    List<String> orderBy = splitColumns(string(input, 4));
    String where = blankToNull(string(input, 5));
    if (partitions != null && where != null) {
      throw CompactErrors.partitionsAndWhere(table);
    }
    Map<String, String> options = parseOptions(table, blankToNull(string(input, 6)));
    Long idleMillis = parseIdleTime(table, blankToNull(string(input, 7)));
    if (idleMillis != null && order != OrderStrategy.NONE) {
      throw CompactErrors.idleTimeWithOrder(table, order.name().toLowerCase(Locale.ROOT));
    }
    String orderName = order.name().toLowerCase(Locale.ROOT);
    if (order != OrderStrategy.NONE) {
      // a missing order_by is checked against the table: on a primary-key table the order
      // strategy itself is the mistake
      if (strategy == CompactStrategy.MINOR) {
        throw CompactErrors.minorWithOrder(table, orderName);
      }
    } else if (!orderBy.isEmpty()) {
      throw CompactErrors.orderByWithoutStrategy(table);
    }
    return new CompactArguments(
        table,
        partitions,
        strategy == CompactStrategy.FULL,
        order,
        orderBy,
        where,
        options,
        idleMillis);
  }

  /** Paimon's {@code options} form: {@code key=value} pairs separated by commas. */
  private static Map<String, String> parseOptions(String table, @Nullable String text) {
    Map<String, String> options = new LinkedHashMap<>();
    if (text == null) {
      return options;
    }
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || pair.substring(0, eq).isBlank()) {
        throw CompactErrors.badOptions(table, text, pair.trim());
      }
      options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return options;
  }

  @Nullable
  private static Long parseIdleTime(String table, @Nullable String text) {
    if (text == null) {
      return null;
    }
    try {
      return Durations.parseMillis(text);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw CompactErrors.badIdleTime(table, text, e);
    }
  }

  /**
   * Checks the arguments against {@code t} and returns them with the order_by columns spelled as
   * the table spells them.
   */
  CompactArguments validate(FileStoreTable t) {
    if (t.partitionType().isEmpty()) {
      if (partitions != null) {
        throw CompactErrors.notPartitioned(t.name(), "partitions");
      }
      if (where != null) {
        throw CompactErrors.notPartitioned(t.name(), "where");
      }
    }
    if (order == OrderStrategy.NONE) {
      return this;
    }
    String orderName = order.name().toLowerCase(Locale.ROOT);
    if (t.hasPrimaryKey()) {
      throw CompactErrors.orderOnPrimaryKeyTable(t.name(), orderName);
    }
    if (orderBy.isEmpty()) {
      throw CompactErrors.orderByMissing(t.name(), orderName);
    }
    List<String> resolved = new ArrayList<>();
    for (String column : orderBy) {
      StructField field = resolve(t, column);
      checkSortable(t, orderName, field);
      resolved.add(field.name());
    }
    return new CompactArguments(
        table, partitions, full, order, resolved, where, options, partitionIdleMillis);
  }

  private static StructField resolve(FileStoreTable t, String column) {
    for (StructField field : t.rowType().fields()) {
      if (field.name().equals(column)) {
        return field;
      }
    }
    for (StructField field : t.rowType().fields()) {
      if (field.name().equalsIgnoreCase(column)) {
        return field;
      }
    }
    throw CompactErrors.noSuchColumn(t.name(), column, Arrays.asList(t.rowType().fieldNames()));
  }

  private void checkSortable(FileStoreTable t, String orderName, StructField field) {
    DataType type = field.dataType();
    boolean ok;
    if (order == OrderStrategy.ZORDER) {
      ok = ZOrder.supports(type);
    } else {
      try {
        new RowComparator(List.of(type));
        ok = true;
      } catch (RuntimeException e) {
        ok = false;
      }
    }
    if (!ok) {
      throw CompactErrors.unsupportedOrderType(t.name(), orderName, field.name(), type.sql());
    }
  }

  @Nullable
  private static String string(InternalRow input, int ordinal) {
    return input.isNullAt(ordinal) ? null : input.getUTF8String(ordinal).toString();
  }

  @Nullable
  private static String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static <E extends Enum<E>> E parseEnum(
      String argument, @Nullable String value, Class<E> type, E defaultValue) {
    String text = blankToNull(value);
    if (text == null) {
      return defaultValue;
    }
    List<String> valid = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      String name = constant.name().toLowerCase(Locale.ROOT);
      if (name.equalsIgnoreCase(text)) {
        return constant;
      }
      valid.add("'" + name + "'");
    }
    throw CompactErrors.unknownValue(argument, text, valid);
  }

  private static List<String> splitColumns(@Nullable String value) {
    List<String> columns = new ArrayList<>();
    if (value != null) {
      for (String part : value.split(",")) {
        if (!part.isBlank()) {
          columns.add(part.trim());
        }
      }
    }
    return columns;
  }
}

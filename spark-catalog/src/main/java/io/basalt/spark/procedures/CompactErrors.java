package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import java.util.List;

/** The user-facing errors of {@code CALL sys.compact}: what is wrong, the value and the fix. */
final class CompactErrors {
  private CompactErrors() {}

  static IllegalArgumentException unknownValue(String argument, String value, List<String> valid) {
    return new IllegalArgumentException(
        String.format(
            "compact: unknown %s '%s'; expected one of %s.",
            argument, value, String.join(", ", valid)));
  }

  static BasaltException partitionsAndWhere(String table) {
    return new BasaltException(
        String.format(
            "compact on %s: 'partitions' and 'where' cannot be used together. Fix: pass only one"
                + " of them.",
            table));
  }

  static BasaltException notPartitioned(String table, String argument) {
    return new BasaltException(
        String.format(
            "compact on %s: '%s' selects partitions, but the table is not partitioned. Fix: drop"
                + " the '%s' argument.",
            table, argument, argument));
  }

  static BasaltException badPartitionSpec(String table, String spec) {
    return new BasaltException(
        String.format(
            "compact on %s: invalid partitions '%s': expected 'key=value' pairs joined by ',' and"
                + " partitions separated by ';', e.g. 'dt=20261001,hh=01;dt=20261002'.",
            table, spec));
  }

  static BasaltException notAPartitionColumn(String table, String column, List<String> keys) {
    return new BasaltException(
        String.format(
            "compact on %s: '%s' in partitions is not a partition column; the partition columns"
                + " are %s.",
            table, column, String.join(", ", keys)));
  }

  static BasaltException badWhere(String table, String where, List<String> keys, Throwable e) {
    return new BasaltException(
        String.format(
            "compact on %s: cannot evaluate where '%s' on the partitions: %s. The condition may"
                + " only use the partition columns (%s).",
            table, where, e.getMessage(), String.join(", ", keys)),
        e);
  }

  static BasaltException badPartitionValues(String table, String spec, Throwable e) {
    return new BasaltException(
        String.format(
            "compact on %s: cannot match partitions '%s': %s", table, spec, e.getMessage()),
        e);
  }

  static BasaltException orderOnPrimaryKeyTable(String table, String strategy) {
    return new BasaltException(
        String.format(
            "compact on %s: order_strategy '%s' applies to append tables only; primary-key tables"
                + " stay sorted by key. Fix: use order_strategy 'none'.",
            table, strategy));
  }

  static BasaltException orderByMissing(String table, String strategy) {
    return new BasaltException(
        String.format(
            "compact on %s: order_strategy '%s' needs the columns to sort by in order_by, e.g."
                + " order_by => 'a,b'.",
            table, strategy));
  }

  static BasaltException orderByWithoutStrategy(String table) {
    return new BasaltException(
        String.format(
            "compact on %s: order_by is set but order_strategy is 'none'. Fix: pass"
                + " order_strategy => 'order' or 'zorder', or drop order_by.",
            table));
  }

  static BasaltException noSuchColumn(String table, String column, List<String> columns) {
    return new BasaltException(
        String.format(
            "compact on %s: order_by column '%s' does not exist; the columns are %s.",
            table, column, String.join(", ", columns)));
  }

  static BasaltException unsupportedOrderType(
      String table, String strategy, String column, String type) {
    return new BasaltException(
        String.format(
            "compact on %s: order_strategy '%s' cannot sort by column '%s' of type %s.",
            table, strategy, column, type));
  }

  static BasaltException minorWithOrder(String table, String strategy) {
    return new BasaltException(
        String.format(
            "compact on %s: order_strategy '%s' rewrites every file of the selected partitions and"
                + " cannot run with compact_strategy 'minor'. Fix: drop compact_strategy or pass"
                + " 'full'.",
            table, strategy));
  }

  static BasaltException taskFailed(String table, String where, Throwable cause) {
    return new BasaltException(
        String.format(
            "compact on %s failed in %s; nothing was committed and the new files were deleted: %s",
            table, where, cause.getMessage()),
        cause);
  }

  static BasaltException badOptions(String table, String options, String pair) {
    return new BasaltException(
        String.format(
            "compact on %s: invalid options '%s': '%s' is not a key=value pair. Fix: pass table"
                + " options as 'key=value' pairs separated by ',', e.g."
                + " 'target-file-size=256 mb,compaction.max.file-num=50'.",
            table, options, pair));
  }

  static BasaltException badIdleTime(String table, String value, RuntimeException cause) {
    return new BasaltException(
        String.format(
            "compact on %s: invalid partition_idle_time '%s': %s. Fix: pass a duration such as"
                + " '1 d', '12 h' or '30 min'.",
            table, value, cause.getMessage()),
        cause);
  }

  static BasaltException idleTimeWithOrder(String table, String order) {
    return new BasaltException(
        String.format(
            "compact on %s: partition_idle_time cannot be combined with order_strategy '%s' (as"
                + " in Paimon, a sort compaction rewrites the partitions it selects regardless of"
                + " their age). Fix: drop one of the two arguments.",
            table, order));
  }
}

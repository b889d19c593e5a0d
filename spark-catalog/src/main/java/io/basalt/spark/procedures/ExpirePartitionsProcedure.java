package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.operation.partition.PartitionExpire;
import io.basalt.options.ConfigOption;
import io.basalt.options.PartitionExpiration;
import io.basalt.options.PartitionOptions;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL sys.expire_partitions(table => 'db.t', expiration_time => '7 d', timestamp_formatter
 * => 'yyyyMMdd', timestamp_pattern => '$dt', expire_strategy => 'values-time', max_expires => 10)}:
 * drops the partitions older than {@code expiration_time} now, in one OVERWRITE commit, and returns
 * one row per dropped partition ({@code dt=20240101}), or {@code No expired partitions.} as Paimon
 * does. Arguments not given come from the table's partition options.
 */
final class ExpirePartitionsProcedure extends BaseProcedure {
  static final String NAME = "expire_partitions";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("expiration_time", DataTypes.StringType).build(),
    ProcedureParameter.in("timestamp_formatter", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("timestamp_pattern", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("expire_strategy", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("max_expires", DataTypes.IntegerType).defaultValue("NULL").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("expired_partitions", DataTypes.StringType, false)
          });

  ExpirePartitionsProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Drops the partitions older than an expiration time", PARAMETERS, OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    List<String> keys = table.schema().partitionKeys();
    String owner = "table " + table.name();
    if (keys.isEmpty()) {
      throw new BasaltException(
          String.format(
              "%s: table %s has no partition columns, so it has no partitions to expire.",
              NAME, table.name()));
    }
    PartitionExpiration defaults = PartitionExpiration.of(table.options(), keys);
    long expiration =
        parse(PartitionOptions.PARTITION_EXPIRATION_TIME, "expiration_time", input, 1, owner);
    String formatter = input.isNullAt(2) ? defaults.formatter() : input.getUTF8String(2).toString();
    PartitionExpiration.checkFormatter(formatter, "argument 'timestamp_formatter'", owner);
    String pattern = input.isNullAt(3) ? defaults.pattern() : input.getUTF8String(3).toString();
    PartitionExpiration.checkPattern(pattern, keys, "argument 'timestamp_pattern'", owner);
    String strategy =
        input.isNullAt(4)
            ? defaults.strategy()
            : parse(
                PartitionOptions.PARTITION_EXPIRATION_STRATEGY, "expire_strategy", input, 4, owner);
    int maxExpires = input.isNullAt(5) ? defaults.maxExpires() : input.getInt(5);
    PartitionExpiration.checkMaxExpires(maxExpires, "argument 'max_expires'", owner);
    PartitionExpiration settings =
        new PartitionExpiration(expiration, 0L, strategy, formatter, pattern, maxExpires);
    List<String> expired = new PartitionExpire(table, settings).expire(System.currentTimeMillis());
    List<InternalRow> rows = new ArrayList<>();
    for (String spec : expired.isEmpty() ? List.of("No expired partitions.") : expired) {
      rows.add(new GenericInternalRow(new Object[] {UTF8String.fromString(spec)}));
    }
    return LocalRows.of(rows, OUTPUT);
  }

  /** Argument {@code ordinal}, parsed like {@code option}. */
  private static <T> T parse(
      ConfigOption<T> option, String argument, InternalRow input, int ordinal, String owner) {
    String value = input.getUTF8String(ordinal).toString();
    try {
      return option.parse(value);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new BasaltException(
          String.format(
              "%s: invalid value '%s' for argument '%s' on %s: %s.",
              NAME, value, argument, owner, e.getMessage()),
          e);
    }
  }
}

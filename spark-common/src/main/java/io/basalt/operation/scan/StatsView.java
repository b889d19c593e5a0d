package io.basalt.operation.scan;

import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.SimpleStats;
import io.basalt.predicate.ColumnStatistics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Decodes {@link SimpleStats} of a known column list into per-column statistics for the may-match
 * evaluator. Stats whose arity does not fit the columns are treated as unknown.
 */
final class StatsView {
  private final List<String> names;
  private final DataType[] types;
  private final BinaryRowCodec codec;

  StatsView(StructType columns) {
    this.names = List.of(columns.fieldNames());
    this.types = new DataType[columns.size()];
    StructField[] fields = columns.fields();
    StructField[] slots = new StructField[fields.length];
    for (int i = 0; i < types.length; i++) {
      types[i] = fields[i].dataType();
      // Paimon's stats rows (its ORC and Avro files, for one) also hold arrays, maps and rows,
      // always null there; decode their fixed slot as a long and never report it
      slots[i] =
          io.basalt.data.ValueComparators.isOrderable(types[i])
              ? fields[i]
              : new StructField(fields[i].name(), DataTypes.LongType, true, Metadata.empty());
    }
    this.codec = new BinaryRowCodec(new StructType(slots));
  }

  /** The statistics of each column, looked up by name; unknown for other names. */
  Function<String, ColumnStatistics> decode(SimpleStats stats) {
    if (stats.minValues().arity() != types.length || stats.maxValues().arity() != types.length) {
      return name -> ColumnStatistics.UNKNOWN;
    }
    InternalRow min = codec.toRow(stats.minValues());
    InternalRow max = codec.toRow(stats.maxValues());
    List<Long> nulls = stats.nullCounts();
    Map<String, ColumnStatistics> byName = new HashMap<>();
    for (int i = 0; i < types.length; i++) {
      Long nullCount = nulls != null && i < nulls.size() ? nulls.get(i) : null;
      if (!io.basalt.data.ValueComparators.isOrderable(types[i])) {
        byName.put(names.get(i), new ColumnStatistics(null, null, nullCount));
        continue;
      }
      byName.put(
          names.get(i),
          new ColumnStatistics(
              min.isNullAt(i) ? null : min.get(i, types[i]),
              max.isNullAt(i) ? null : max.get(i, types[i]),
              nullCount));
    }
    return name -> byName.getOrDefault(name, ColumnStatistics.UNKNOWN);
  }

  /** The values of one row of the columns (a partition), by name; null for SQL NULL. */
  Function<String, Object> values(io.basalt.data.BinaryRow binary) {
    InternalRow row = codec.toRow(binary);
    Map<String, Object> byName = new HashMap<>();
    for (int i = 0; i < types.length; i++) {
      byName.put(names.get(i), row.isNullAt(i) ? null : row.get(i, types[i]));
    }
    return byName::get;
  }
}

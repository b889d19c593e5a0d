package io.basalt.operation.write;

import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ValueComparators;
import io.basalt.format.ColumnStats;
import io.basalt.manifest.SimpleStats;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;

/**
 * Turns the column statistics of a written file into manifest {@link SimpleStats} for a range of
 * its columns. Columns without an order (arrays, maps, structs) get no stats and, in dense mode,
 * are left out: {@link #statsColumns()} then names the covered columns.
 */
final class StatsConverter implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Strings in value stats are cut to this many characters, as Paimon's truncate(16). */
  static final int TRUNCATE_LENGTH = 16;

  private final int offset;
  private final int[] covered;
  private final StructType coveredType;
  private final boolean truncateStrings;
  @Nullable private final List<String> statsColumns;
  private transient BinaryRowCodec codec;

  /**
   * @param columns the columns, in file order from {@code offset}
   * @param truncateStrings whether to cut string stats (value stats) or keep them whole (keys)
   */
  StatsConverter(StructType columns, int offset, boolean truncateStrings) {
    this.offset = offset;
    this.truncateStrings = truncateStrings;
    List<Integer> indices = new ArrayList<>();
    List<StructField> fields = new ArrayList<>();
    List<String> names = new ArrayList<>();
    StructField[] all = columns.fields();
    for (int i = 0; i < all.length; i++) {
      if (ValueComparators.isOrderable(all[i].dataType())) {
        indices.add(i);
        fields.add(all[i]);
        names.add(all[i].name());
      }
    }
    this.covered = indices.stream().mapToInt(Integer::intValue).toArray();
    this.coveredType = new StructType(fields.toArray(new StructField[0]));
    this.statsColumns = covered.length == all.length ? null : List.copyOf(names);
  }

  /** The names of the columns with stats, or null when all columns have them. */
  @Nullable
  List<String> statsColumns() {
    return statsColumns;
  }

  SimpleStats convert(List<ColumnStats> fileStats) {
    if (codec == null) {
      codec = new BinaryRowCodec(coveredType);
    }
    Object[] min = new Object[covered.length];
    Object[] max = new Object[covered.length];
    List<Long> nulls = new ArrayList<>(covered.length);
    for (int i = 0; i < covered.length; i++) {
      ColumnStats stats = fileStats.get(offset + covered[i]);
      if (truncateStrings && isString(coveredType.fields()[i])) {
        stats = ColumnStats.truncate(stats, TRUNCATE_LENGTH);
      }
      min[i] = stats.min();
      max[i] = stats.max();
      nulls.add(stats.nullCount());
    }
    return new SimpleStats(
        codec.toBinary(new GenericInternalRow(min)),
        codec.toBinary(new GenericInternalRow(max)),
        nulls);
  }

  private static boolean isString(StructField field) {
    return field.dataType() instanceof StringType
        || field.dataType() instanceof CharType
        || field.dataType() instanceof VarcharType;
  }
}

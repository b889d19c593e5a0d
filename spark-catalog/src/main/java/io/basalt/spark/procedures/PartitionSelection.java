package io.basalt.spark.procedures;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.options.TableOptions;
import io.basalt.table.FileStoreTable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Picks the partitions that {@code partitions} or {@code where} select, by evaluating them with
 * Spark over a small DataFrame holding one row per partition value: Spark parses and type-checks
 * the condition, so any SQL on partition columns works and anything else fails to resolve.
 */
final class PartitionSelection {
  private static final String INDEX = "__basalt_partition_index";

  private final FileStoreTable table;
  private final StructType partitionType;
  private final List<String> keys;

  PartitionSelection(FileStoreTable table) {
    this.table = table;
    this.partitionType = table.partitionType();
    this.keys = List.of(partitionType.fieldNames());
  }

  /** The partitions among {@code candidates} that {@code args} select. */
  Set<BinaryRow> select(List<BinaryRow> candidates, CompactArguments args) {
    if (args.partitions() == null && args.where() == null) {
      return new HashSet<>(candidates);
    }
    // parse the spec before looking at the data: a bad spec fails even on an empty table
    Column condition = args.partitions() == null ? null : specCondition(args.partitions());
    if (candidates.isEmpty()) {
      return Set.of();
    }
    Dataset<Row> frame = frame(candidates);
    List<Row> matched;
    try {
      Dataset<Row> filtered =
          condition == null ? frame.where(args.where()) : frame.where(condition);
      matched = filtered.select(INDEX).collectAsList();
    } catch (Exception e) {
      throw args.where() != null
          ? CompactErrors.badWhere(table.name(), args.where(), keys, e)
          : CompactErrors.badPartitionValues(table.name(), args.partitions(), e);
    }
    Set<BinaryRow> selected = new HashSet<>();
    for (Row row : matched) {
      selected.add(candidates.get(row.getInt(0)));
    }
    return selected;
  }

  /** {@code (k1 <=> v1 AND k2 <=> v2) OR ...} for the spec {@code k1=v1,k2=v2;...}. */
  private Column specCondition(String spec) {
    String defaultName = table.options().get(TableOptions.PARTITION_DEFAULT_NAME);
    Column any = null;
    for (String partition : spec.split(";")) {
      if (partition.isBlank()) {
        continue;
      }
      Column all = null;
      for (String pair : partition.split(",")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw CompactErrors.badPartitionSpec(table.name(), spec);
        }
        String key = pair.substring(0, eq).trim();
        String value = pair.substring(eq + 1).trim();
        StructField field = partitionField(key);
        Column column = functions.col(quote(field.name()));
        Column test =
            value.equals(defaultName)
                ? column.isNull()
                : column.eqNullSafe(functions.lit(value).cast(field.dataType()));
        all = all == null ? test : all.and(test);
      }
      any = any == null ? all : any.or(all);
    }
    if (any == null) {
      throw CompactErrors.badPartitionSpec(table.name(), spec);
    }
    return any;
  }

  private StructField partitionField(String key) {
    for (StructField field : partitionType.fields()) {
      if (field.name().equalsIgnoreCase(key)) {
        return field;
      }
    }
    throw CompactErrors.notAPartitionColumn(table.name(), key, keys);
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** One row per candidate: its index in {@code candidates}, then its partition values. */
  private Dataset<Row> frame(List<BinaryRow> candidates) {
    BinaryRowCodec codec = new BinaryRowCodec(partitionType);
    List<Row> rows = new ArrayList<>(candidates.size());
    for (int i = 0; i < candidates.size(); i++) {
      InternalRow values = codec.toRow(candidates.get(i));
      Object[] external = new Object[partitionType.size() + 1];
      external[0] = i;
      for (int f = 0; f < partitionType.size(); f++) {
        DataType type = partitionType.fields()[f].dataType();
        external[f + 1] = values.isNullAt(f) ? null : toExternal(values.get(f, type), type);
      }
      rows.add(RowFactory.create(external));
    }
    List<StructField> fields = new ArrayList<>();
    fields.add(DataTypes.createStructField(INDEX, DataTypes.IntegerType, false));
    fields.addAll(List.of(partitionType.fields()));
    StructType schema = DataTypes.createStructType(fields);
    return SparkSession.active().createDataFrame(rows, schema);
  }

  /** Spark's external (Row) value for an internal partition value. */
  private static Object toExternal(Object value, DataType type) {
    if (type instanceof StringType) {
      return value.toString();
    } else if (type instanceof DateType) {
      return LocalDate.ofEpochDay((Integer) value);
    } else if (type instanceof TimestampType) {
      long micros = (Long) value;
      return Instant.ofEpochSecond(
          Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    } else if (type instanceof TimestampNTZType) {
      long micros = (Long) value;
      return LocalDateTime.ofEpochSecond(
          Math.floorDiv(micros, 1_000_000L),
          (int) Math.floorMod(micros, 1_000_000L) * 1000,
          ZoneOffset.UTC);
    } else if (type instanceof DecimalType) {
      return ((org.apache.spark.sql.types.Decimal) value).toJavaBigDecimal();
    }
    return value; // numbers, booleans and byte[] are the same inside and out
  }
}

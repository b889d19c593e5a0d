package io.basalt.operation.scan;

import io.basalt.manifest.DataFileMeta;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.rowtracking.RowTracking;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.schema.TypeWidening;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongFunction;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Decodes the value statistics of data files for the columns of the schema being read. A file's
 * stats are laid out by the schema it was written with ({@link DataFileMeta#schemaId()}): its
 * columns, or the names in {@code valueStatsCols}, under the names of that schema. So columns are
 * matched by field id: a renamed column keeps its stats, a column the file lacks (added later, or
 * dropped and re-added under the same name) has unknown stats, and a widened column's values are
 * up-cast to the read type.
 */
final class FileValueStats {
  private final TableSchema readSchema;
  private final LongFunction<TableSchema> schemas;
  private final Map<Long, TableSchema> loaded = new HashMap<>();
  private final Map<List<Object>, StatsView> views = new HashMap<>();

  /**
   * @param schemas loads a schema by id (files written before the read schema)
   */
  FileValueStats(TableSchema readSchema, LongFunction<TableSchema> schemas) {
    this.readSchema = readSchema;
    this.schemas = schemas;
    loaded.put(readSchema.id(), readSchema);
  }

  /** The schema {@code file} was written with. */
  TableSchema schemaOf(DataFileMeta file) {
    return loaded.computeIfAbsent(file.schemaId(), schemas::apply);
  }

  /** The statistics of {@code file}, by column name of the read schema. */
  Function<String, ColumnStatistics> decode(DataFileMeta file) {
    TableSchema fileSchema = loaded.computeIfAbsent(file.schemaId(), schemas::apply);
    List<String> statsColumns = file.valueStatsCols();
    // files that store row-tracking columns have their statistics after the table columns
    boolean tracked =
        statsColumns == null
            && file.valueStats().minValues().arity() == fileSchema.fields().size() + 2;
    StatsView view =
        views.computeIfAbsent(
            List.of(fileSchema.id(), statsColumns == null ? List.of() : statsColumns, tracked),
            k -> new StatsView(columns(fileSchema, statsColumns, tracked)));
    Function<String, ColumnStatistics> byFileName = view.decode(file.valueStats());
    if (fileSchema.id() == readSchema.id()) {
      return byFileName;
    }
    return name -> {
      DataField column = readSchema.field(name);
      DataField inFile = column == null ? null : byId(fileSchema, column.id());
      if (inFile == null) {
        return ColumnStatistics.UNKNOWN;
      }
      ColumnStatistics stats = byFileName.apply(inFile.name());
      if (inFile.type().equals(column.type()) || stats == ColumnStatistics.UNKNOWN) {
        return stats;
      }
      if (!TypeWidening.isAllowed(inFile.type(), column.type())) {
        // a conversion that may not keep the order (STRING to INT, DOUBLE to INT)
        return ColumnStatistics.UNKNOWN;
      }
      return new ColumnStatistics(
          upCast(stats.min(), column.type()),
          upCast(stats.max(), column.type()),
          stats.nullCount());
    };
  }

  private static StructType columns(
      TableSchema schema, @Nullable List<String> names, boolean tracked) {
    List<StructField> fields = new ArrayList<>();
    if (names == null) {
      for (DataField field : schema.fields()) {
        fields.add(field.toStructField());
      }
      StructType all = new StructType(fields.toArray(new StructField[0]));
      return tracked ? RowTracking.withTrackingColumns(all) : all;
    }
    for (String name : names) {
      DataField field = schema.field(name);
      if (field != null) {
        fields.add(field.toStructField());
      } else if (RowTracking.ROW_ID.equals(name)) {
        fields.add(RowTracking.rowIdField());
      } else if (RowTracking.SEQUENCE_NUMBER.equals(name)) {
        fields.add(RowTracking.sequenceNumberField());
      } else {
        throw new IllegalArgumentException("Column " + name + " does not exist");
      }
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  @Nullable
  private static DataField byId(TableSchema schema, int id) {
    for (DataField field : schema.fields()) {
      if (field.id() == id) {
        return field;
      }
    }
    return null;
  }

  /** A stats value of a narrower type as a value of the widened {@code type}. */
  @Nullable
  private static Object upCast(@Nullable Object value, DataType type) {
    if (value instanceof Number number) {
      if (type instanceof LongType) {
        return number.longValue();
      } else if (type instanceof IntegerType) {
        return number.intValue();
      } else if (type instanceof ShortType) {
        return number.shortValue();
      } else if (type instanceof ByteType) {
        return number.byteValue();
      } else if (type instanceof DoubleType) {
        return number.doubleValue();
      }
    }
    // decimals compare by value whatever their precision
    return value;
  }
}

package io.basalt.spark.read;

import io.basalt.format.orc.OrcColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.execution.datasources.orc.OrcFilters;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Turns pushed filters into the ORC search argument that lets a file's reader skip stripes and row
 * groups whose statistics prove no row matches, with Spark's own converter ({@code OrcFilters}).
 * Rows of the kept row groups come back unfiltered (Spark evaluates the filters again), so this
 * only ever prunes.
 *
 * <p>A filter may use a column only when the file stores it as the table reads it: the same name (a
 * renamed column's filter names the new name), the same field id, and the same primitive ORC type
 * (a widened column's statistics are of the old type). Timestamps are left out: Paimon's ORC
 * encoding keeps the UTC wall clock, which Spark's converter would compare in the JVM's zone. A
 * filter over other columns is dropped where that is safe (a conjunct) and kept out otherwise.
 */
final class OrcSearchArguments {
  private OrcSearchArguments() {}

  /** The search argument of {@code filters} over a file of {@code fileSchema}; null if none. */
  @Nullable
  static SearchArgument of(TypeDescription fileSchema, StructType requested, Filter[] filters) {
    if (filters.length == 0) {
      return null;
    }
    List<StructField> searchable = new ArrayList<>();
    for (StructField field : requested.fields()) {
      int child = OrcColumns.childIndex(fileSchema, field);
      if (child >= 0
          && fileSchema.getFieldNames().get(child).equals(field.name())
          && sameType(fileSchema.getChildren().get(child), field.dataType())) {
        searchable.add(new StructField(field.name(), field.dataType(), true, field.metadata()));
      }
    }
    if (searchable.isEmpty()) {
      return null;
    }
    Option<SearchArgument> argument =
        OrcFilters.createFilter(
            new StructType(searchable.toArray(new StructField[0])),
            CollectionConverters.asScala(Arrays.asList(filters)).toSeq());
    return argument.isDefined() ? argument.get() : null;
  }

  /** Whether the file's statistics of a column of ORC type {@code file} compare as {@code type}. */
  private static boolean sameType(TypeDescription file, DataType type) {
    return switch (file.getCategory()) {
      case BOOLEAN -> type instanceof BooleanType;
      case BYTE -> type instanceof ByteType;
      case SHORT -> type instanceof ShortType;
      case INT -> type instanceof IntegerType;
      case LONG -> type instanceof LongType;
      case FLOAT -> type instanceof FloatType;
      case DOUBLE -> type instanceof DoubleType;
      case STRING -> type instanceof StringType;
      case DATE -> type instanceof DateType;
      case DECIMAL ->
          type instanceof DecimalType decimal
              && decimal.precision() == file.getPrecision()
              && decimal.scale() == file.getScale();
      default -> false;
    };
  }
}

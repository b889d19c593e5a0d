package io.basalt.spark.read;

import io.basalt.format.ParquetSchemas;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.internal.LegacyBehaviorPolicy;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * Turns pushed filters into the Parquet predicate that lets a file's reader skip row groups (by
 * statistics and dictionaries) and pages (by the column index) where no row can match. Rows of the
 * groups and pages that are kept come back unfiltered, so this only ever prunes.
 */
final class RowGroupFilters {
  private RowGroupFilters() {}

  /**
   * The filters of {@code options} Spark can express over {@code fileSchema}, and-ed; null if none.
   * A filter is used only when each of its columns is read ({@code options.requestedSchema()}) and
   * stored in the file as read: page filtering treats an unread column as all nulls.
   */
  @Nullable
  static FilterPredicate of(VectorizedReadOptions options, MessageType fileSchema) {
    if (!options.filterPushDown() || options.filters().length == 0) {
      return null;
    }
    ParquetFilters converter =
        new ParquetFilters(
            fileSchema,
            options.pushDownDate(),
            options.pushDownTimestamp(),
            options.pushDownDecimal(),
            options.pushDownStringPredicate(),
            options.pushDownInFilterThreshold(),
            true,
            new RebaseDateTime.RebaseSpec(LegacyBehaviorPolicy.CORRECTED(), Option.empty()));
    FilterPredicate result = null;
    for (Filter filter : options.filters()) {
      if (!Arrays.stream(filter.references())
          .allMatch(column -> sameColumnInFile(options.requestedSchema(), fileSchema, column))) {
        continue;
      }
      Option<FilterPredicate> converted = converter.createFilter(filter);
      if (converted.isDefined()) {
        result = result == null ? converted.get() : FilterApi.and(result, converted.get());
      }
    }
    return result;
  }

  /**
   * Whether a filter on {@code column} may skip row groups of a file with {@code fileSchema}: only
   * when the file holds the column under the same name, field id and Parquet type as the read
   * schema. A file of an older schema may hold the column under another name (renamed), hold
   * another column under its name (dropped and re-added), or store a narrower type (widened).
   */
  private static boolean sameColumnInFile(
      StructType requested, MessageType fileSchema, String column) {
    int index = List.of(requested.fieldNames()).indexOf(column);
    if (index < 0 || !fileSchema.containsField(column)) {
      return false;
    }
    Type expected =
        ParquetSchemas.toMessageType(new StructType(new StructField[] {requested.fields()[index]}))
            .getType(0);
    return expected.equals(fileSchema.getType(column));
  }
}

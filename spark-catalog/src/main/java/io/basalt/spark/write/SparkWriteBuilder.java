package io.basalt.spark.write;

import io.basalt.BasaltException;
import io.basalt.predicate.Predicate;
import io.basalt.spark.SparkTable;
import io.basalt.spark.convert.SparkPredicates;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * Builds a write: append, overwrite of the partitions a filter selects (static INSERT OVERWRITE,
 * TRUNCATE), or overwrite of the partitions the new rows land in (dynamic mode). A streaming
 * query's complete output mode is a truncate: each batch replaces the table.
 */
public class SparkWriteBuilder
    implements WriteBuilder, SupportsOverwriteV2, SupportsDynamicOverwrite, SupportsTruncate {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private boolean overwrite;
  private boolean dynamic;
  @Nullable private Predicate overwriteFilter;

  public SparkWriteBuilder(FileStoreTable table, LogicalWriteInfo info) {
    this.table = DynamicBucketWrite.withAssigners(table);
    this.info = info;
  }

  @Override
  public boolean canOverwrite(
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    return partitionFilter(table, predicates).isPresent();
  }

  @Override
  public WriteBuilder overwrite(
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    this.overwrite = true;
    this.overwriteFilter =
        partitionFilter(table, predicates)
            .orElseThrow(
                () ->
                    new BasaltException(
                        "Table "
                            + table.name()
                            + ": INSERT OVERWRITE can only replace whole partitions; the filter"
                            + " must use partition columns only"))
            .orElse(null);
    return this;
  }

  /**
   * The engine form of a filter that selects whole partitions of {@code table} (an overwrite or
   * delete filter): empty when it is not on partition columns only, an empty predicate when it
   * selects everything.
   */
  public static Optional<Optional<Predicate>> partitionFilter(
      FileStoreTable table,
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    StructType schema = SparkTable.sparkSchema(table.schema());
    Set<String> partitionKeys = new HashSet<>(table.schema().partitionKeys());
    List<Predicate> converted = new ArrayList<>();
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
      if ("ALWAYS_TRUE".equals(predicate.name())) {
        continue;
      }
      Optional<Predicate> engine = SparkPredicates.convert(predicate, schema);
      if (engine.isEmpty() || !partitionKeys.containsAll(engine.get().columns())) {
        return Optional.empty();
      }
      converted.add(engine.get());
    }
    return Optional.of(Optional.ofNullable(Predicate.and(converted)));
  }

  @Override
  public WriteBuilder truncate() {
    this.overwrite = true;
    this.overwriteFilter = null;
    return this;
  }

  @Override
  public WriteBuilder overwriteDynamicPartitions() {
    this.overwrite = true;
    this.dynamic = true;
    return this;
  }

  @Override
  public Write build() {
    if (table.schema().crossPartitionUpsert()) {
      throw CrossPartitionUpsert.needsRouting(
          table, overwrite ? "INSERT OVERWRITE" : "this write (streaming, or without the rule)");
    }
    return new SparkWrite(table, info, overwrite, dynamic, overwriteFilter);
  }
}

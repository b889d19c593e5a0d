package io.basalt.spark.write;

import io.basalt.predicate.Predicate;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;

/**
 * A routed cross-partition upsert: distributed like any dynamic-bucket write (a key's rows, in its
 * old and new partition, reach the task of the key's assigner), and sorted by input order within a
 * key, so partial updates and aggregations apply in the order the rows came.
 */
final class CrossPartitionWrite implements Write, RequiresDistributionAndOrdering {
  private final FileStoreTable table;
  @Nullable private final Long baseSnapshotId;
  private final boolean overwrite;
  private final boolean dynamic;
  @Nullable private final Predicate overwriteFilter;

  CrossPartitionWrite(
      FileStoreTable table,
      @Nullable Long baseSnapshotId,
      boolean overwrite,
      boolean dynamic,
      @Nullable Predicate overwriteFilter) {
    this.table = table;
    this.baseSnapshotId = baseSnapshotId;
    this.overwrite = overwrite;
    this.dynamic = dynamic;
    this.overwriteFilter = overwriteFilter;
  }

  @Override
  public String description() {
    return "BasaltCrossPartitionWrite(" + table.name() + (overwrite ? ", overwrite" : "") + ")";
  }

  @Override
  public Distribution requiredDistribution() {
    return SparkWrite.distribution(table);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    List<SortOrder> ordering = new ArrayList<>(List.of(SparkWrite.ordering(table)));
    ordering.add(
        Expressions.sort(Expressions.column(CrossPartitionUpsert.ORDER), SortDirection.ASCENDING));
    return ordering.toArray(new SortOrder[0]);
  }

  @Override
  public BatchWrite toBatch() {
    return new SparkBatchWrite(table, overwrite, dynamic, overwriteFilter, null)
        .routed(baseSnapshotId);
  }
}

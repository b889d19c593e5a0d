package io.basalt.spark.write;

import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.RowLevelOperation.Command;

/**
 * The planned write of a {@link SparkDeltaOperation}. Like every write it clusters rows by
 * (partition, bucket), so each bucket's changes reach exactly one task, and sorts them by key. The
 * clustering columns are key columns, which every change row carries, deletes included. A DELETE
 * that removes rows from files clusters by the deleted rows' partition and bucket instead (see
 * {@link KeyFileDeleteRows}).
 */
final class SparkDeltaWrite implements DeltaWrite, RequiresDistributionAndOrdering {
  private final FileStoreTable table;
  private final LogicalWriteInfo info;
  private final Command command;

  SparkDeltaWrite(FileStoreTable table, LogicalWriteInfo info, Command command) {
    this.table = DynamicBucketWrite.withAssigners(table);
    this.info = info;
    this.command = command;
  }

  @Override
  public String description() {
    return "BasaltDeltaWrite(" + table.name() + ", " + command + ")";
  }

  /**
   * On a cross-partition upsert table a delete carries the key but not the partition, so rows are
   * clustered by the key's assigner alone, which owns the key's bucket in every partition.
   */
  @Override
  public Distribution requiredDistribution() {
    if (SparkDeltaOperation.deletesFromFiles(table, command)) {
      return Distributions.clustered(KeyFileDeleteRows.clustering(table));
    }
    if (table.schema().crossPartitionUpsert()) {
      return Distributions.clustered(new Expression[] {assigner()});
    }
    return SparkWrite.distribution(table);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    if (SparkDeltaOperation.deletesFromFiles(table, command)) {
      return KeyFileDeleteRows.ordering(table);
    }
    if (table.schema().crossPartitionUpsert()) {
      List<SortOrder> ordering = new ArrayList<>();
      ordering.add(Expressions.sort(assigner(), SortDirection.ASCENDING));
      for (String key : table.schema().primaryKeys()) {
        ordering.add(Expressions.sort(Expressions.column(key), SortDirection.ASCENDING));
      }
      return ordering.toArray(new SortOrder[0]);
    }
    return SparkWrite.ordering(table);
  }

  private Expression assigner() {
    return SparkWrite.bucketTransform(table, DynamicBucketWrite.assigners(table));
  }

  @Override
  public DeltaBatchWrite toBatch() {
    return new SparkDeltaBatchWrite(table, info, command);
  }
}

package io.basalt.spark.write;

import io.basalt.table.FileStoreTable;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.RowLevelOperation.Command;

/**
 * The planned write of a {@link SparkDeltaOperation}. Like every write it clusters rows by
 * (partition, bucket), so each bucket's changes reach exactly one task, and sorts them by key. The
 * clustering columns are key columns, which every change row carries, deletes included.
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

  @Override
  public Distribution requiredDistribution() {
    return SparkWrite.distribution(table);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    return SparkWrite.ordering(table);
  }

  @Override
  public DeltaBatchWrite toBatch() {
    return new SparkDeltaBatchWrite(table, info, command);
  }
}

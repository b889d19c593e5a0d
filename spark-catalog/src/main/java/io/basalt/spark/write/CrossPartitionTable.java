package io.basalt.spark.write;

import io.basalt.table.FileStoreTable;
import java.util.EnumSet;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * The target of a routed cross-partition upsert: the table's columns plus the routing columns of
 * {@link CrossPartitionUpsert}. Only the session extensions' rule creates it, for one write.
 */
final class CrossPartitionTable implements SupportsWrite {
  private final FileStoreTable table;
  private final StructType schema;
  @Nullable private final Long baseSnapshotId;

  CrossPartitionTable(FileStoreTable table, StructType schema, @Nullable Long baseSnapshotId) {
    this.table = table;
    this.schema = schema;
    this.baseSnapshotId = baseSnapshotId;
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_WRITE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    table.checkWritable();
    FileStoreTable target = DynamicBucketWrite.withAssigners(table);
    return new WriteBuilder() {
      @Override
      public Write build() {
        return new CrossPartitionWrite(target, baseSnapshotId);
      }
    };
  }

  @Override
  public String toString() {
    return "CrossPartitionTable(" + table.name() + ")";
  }
}

package io.basalt.spark.write;

import io.basalt.predicate.Predicate;
import io.basalt.table.FileStoreTable;
import java.util.EnumSet;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.SupportsTruncate;
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
    return EnumSet.of(
        TableCapability.BATCH_WRITE,
        TableCapability.OVERWRITE_BY_FILTER,
        TableCapability.OVERWRITE_DYNAMIC,
        TableCapability.TRUNCATE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    table.checkWritable();
    FileStoreTable target = DynamicBucketWrite.withAssigners(table);
    return new Builder(target);
  }

  /** Append, or overwrite of the partitions a filter selects or the rows land in. */
  private final class Builder
      implements WriteBuilder, SupportsOverwriteV2, SupportsDynamicOverwrite, SupportsTruncate {
    private final FileStoreTable target;
    private boolean overwrite;
    private boolean dynamic;
    @Nullable private Predicate filter;

    Builder(FileStoreTable target) {
      this.target = target;
    }

    @Override
    public boolean canOverwrite(
        org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
      return SparkWriteBuilder.partitionFilter(target, predicates).isPresent();
    }

    @Override
    public WriteBuilder overwrite(
        org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
      this.overwrite = true;
      this.filter =
          SparkWriteBuilder.partitionFilter(target, predicates).orElseThrow().orElse(null);
      return this;
    }

    @Override
    public WriteBuilder overwriteDynamicPartitions() {
      this.overwrite = true;
      this.dynamic = true;
      return this;
    }

    @Override
    public WriteBuilder truncate() {
      this.overwrite = true;
      this.filter = null;
      return this;
    }

    @Override
    public Write build() {
      return new CrossPartitionWrite(target, baseSnapshotId, overwrite, dynamic, filter);
    }
  }

  @Override
  public String toString() {
    return "CrossPartitionTable(" + table.name() + ")";
  }
}

package io.basalt.spark.write;

import io.basalt.table.FileStoreTable;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.internal.connector.SupportsStreamingUpdateAsAppend;

/**
 * The write builder of a primary-key table. It also takes a streaming query's update output mode:
 * each updated row is an upsert of its key, so appending it is exactly the update.
 */
public final class PrimaryKeyWriteBuilder extends SparkWriteBuilder
    implements SupportsStreamingUpdateAsAppend {
  public PrimaryKeyWriteBuilder(FileStoreTable table, LogicalWriteInfo info) {
    super(table, info);
  }
}

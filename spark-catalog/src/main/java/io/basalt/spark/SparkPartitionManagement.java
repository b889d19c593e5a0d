package io.basalt.spark;

import io.basalt.table.FileStoreTable;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.SupportsAtomicPartitionManagement;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's partition commands ({@code SHOW PARTITIONS}, {@code ALTER TABLE ... ADD/DROP PARTITION},
 * {@code TRUNCATE TABLE ... PARTITION}) on a Basalt table, answered by {@link TablePartitions}. An
 * interface with default methods, so that {@link SparkTable} only declares it.
 */
public interface SparkPartitionManagement extends SupportsAtomicPartitionManagement {

  /** The table whose partitions the commands manage. */
  FileStoreTable fileStoreTable();

  private TablePartitions partitions() {
    return new TablePartitions(fileStoreTable());
  }

  @Override
  default StructType partitionSchema() {
    return fileStoreTable().partitionType();
  }

  @Override
  default InternalRow[] listPartitionIdentifiers(String[] names, InternalRow ident) {
    return partitions().list(names, ident);
  }

  @Override
  default boolean partitionExists(InternalRow ident) {
    return partitions().exists(ident);
  }

  @Override
  default Map<String, String> loadPartitionMetadata(InternalRow ident) {
    return partitions().metadata(ident);
  }

  @Override
  default void createPartitions(InternalRow[] idents, Map<String, String>[] properties) {
    partitions().create(idents, properties);
  }

  @Override
  default boolean dropPartitions(InternalRow[] idents) {
    return partitions().drop(idents);
  }

  @Override
  default boolean truncatePartitions(InternalRow[] idents) {
    return partitions().drop(idents);
  }

  @Override
  default boolean truncatePartition(InternalRow ident) {
    return partitions().drop(new InternalRow[] {ident});
  }

  @Override
  default void replacePartitionMetadata(InternalRow ident, Map<String, String> properties) {
    throw partitions().noPartitionMetadata();
  }
}

package io.basalt.fs;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.PartitionPaths;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;

/**
 * Turns a (partition, bucket) into its data directory, {@code <k=v/...>/bucket-<n>}, caching the
 * partition part since one writer or reader sees few partitions.
 */
public final class DataFilePaths implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TablePaths paths;
  private final StructType partitionType;
  private final String defaultPartitionName;
  private transient Map<BinaryRow, String> cache;
  private transient BinaryRowCodec codec;
  private transient PartitionPaths partitionPaths;

  public DataFilePaths(TablePaths paths, StructType partitionType, String defaultPartitionName) {
    this.paths = paths;
    this.partitionType = partitionType;
    this.defaultPartitionName = defaultPartitionName;
  }

  public Path bucketDir(BinaryRow partition, int bucket) {
    return paths.bucketDir(partitionPath(partition), bucket);
  }

  /** The relative partition directory, empty for an unpartitioned table. */
  public String partitionPath(BinaryRow partition) {
    if (partitionType.isEmpty()) {
      return "";
    }
    if (cache == null) {
      cache = new HashMap<>();
      codec = new BinaryRowCodec(partitionType);
      partitionPaths = new PartitionPaths(partitionType, defaultPartitionName);
    }
    return cache.computeIfAbsent(partition, p -> partitionPaths.path(codec.toRow(p)));
  }
}

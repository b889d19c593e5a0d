package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.table.DataSplit;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.HasPartitionKey;

/**
 * Pieces of one (partition, bucket), read as one unit of a grouped scan (see {@link
 * BucketGrouping}).
 *
 * @param partitionKey the values of the reported partitioning: the partition columns in the read
 *     schema, then the bucket
 */
@DefaultSerializer(JavaSerializer.class)
record GroupedInputPartition(List<DataSplit> splits, InternalRow partitionKey)
    implements SparkInputPartition, HasPartitionKey {
  GroupedInputPartition {
    splits = List.copyOf(splits);
  }
}

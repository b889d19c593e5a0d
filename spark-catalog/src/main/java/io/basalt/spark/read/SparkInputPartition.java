package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.table.DataSplit;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** The splits one task reads, one after another (see {@code SplitPacker}). */
@DefaultSerializer(JavaSerializer.class)
record SparkInputPartition(List<DataSplit> splits) implements InputPartition {
  SparkInputPartition {
    splits = List.copyOf(splits);
  }
}

package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.table.DataSplit;
import java.util.List;

/** Splits packed by size, across buckets (see {@code SplitPacker}): the default layout. */
@DefaultSerializer(JavaSerializer.class)
record PackedInputPartition(List<DataSplit> splits) implements SparkInputPartition {
  PackedInputPartition {
    splits = List.copyOf(splits);
  }
}

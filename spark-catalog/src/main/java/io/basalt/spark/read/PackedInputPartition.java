package io.basalt.spark.read;

import io.basalt.table.DataSplit;
import java.util.List;

/** Splits packed by size, across buckets (see {@code SplitPacker}): the default layout. */
record PackedInputPartition(List<DataSplit> splits) implements SparkInputPartition {
  PackedInputPartition {
    splits = List.copyOf(splits);
  }
}

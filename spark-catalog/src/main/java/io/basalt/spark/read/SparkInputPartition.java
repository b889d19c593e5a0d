package io.basalt.spark.read;

import io.basalt.table.DataSplit;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** The splits one task reads, one after another. */
sealed interface SparkInputPartition extends InputPartition
    permits PackedInputPartition, GroupedInputPartition {
  List<DataSplit> splits();
}

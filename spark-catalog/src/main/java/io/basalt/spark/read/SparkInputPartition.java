package io.basalt.spark.read;

import io.basalt.table.DataSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/** One split, shipped to a task. */
record SparkInputPartition(DataSplit split) implements InputPartition {}

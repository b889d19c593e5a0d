package io.basalt.spark.read;

import io.basalt.operation.incremental.IncrementalSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/** One split of a change read, read by one task. */
record IncrementalInputPartition(IncrementalSplit split) implements InputPartition {}

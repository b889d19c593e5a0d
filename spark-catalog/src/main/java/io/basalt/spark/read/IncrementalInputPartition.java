package io.basalt.spark.read;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.operation.incremental.IncrementalSplit;
import org.apache.spark.sql.connector.read.InputPartition;

/** One split of a change read, read by one task. */
@DefaultSerializer(JavaSerializer.class)
public record IncrementalInputPartition(IncrementalSplit split) implements InputPartition {}

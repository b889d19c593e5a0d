package io.basalt.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.table.CommitMessage;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * A task's new files, sent to the driver. Spark ships it with {@code spark.serializer}; Kryo's
 * field serializer cannot build records, so Kryo delegates to Java serialization (see {@code
 * BasaltKryoRegistrator}).
 */
@DefaultSerializer(JavaSerializer.class)
record SparkCommitMessage(List<CommitMessage> messages) implements WriterCommitMessage {}

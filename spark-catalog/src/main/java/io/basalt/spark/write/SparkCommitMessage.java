package io.basalt.spark.write;

import io.basalt.table.CommitMessage;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** A task's new files, sent to the driver. */
record SparkCommitMessage(List<CommitMessage> messages) implements WriterCommitMessage {}

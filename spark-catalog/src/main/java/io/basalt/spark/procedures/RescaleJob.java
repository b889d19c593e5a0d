package io.basalt.spark.procedures;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.compact.PartitionRescaler;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a rescale as one Spark job with one task per partition (a partition's new buckets must each
 * have one writer), then commits every partition's new files once, on the driver, in place of the
 * bucket files the job read. When a task or the commit fails, the new files are deleted.
 */
final class RescaleJob {
  private final FileStoreTable table;
  private final int bucketCount;

  RescaleJob(FileStoreTable table, int bucketCount) {
    this.table = table;
    this.bucketCount = bucketCount;
  }

  /** A partition's read splits. */
  @DefaultSerializer(JavaSerializer.class)
  record TaskInput(BinaryRow partition, List<DataSplit> splits) implements Serializable {}

  /** A task's new files, or why it failed. */
  @DefaultSerializer(JavaSerializer.class)
  record TaskResult(
      BinaryRow partition, @Nullable List<CommitMessage> messages, @Nullable Throwable error)
      implements Serializable {}

  /**
   * Rewrites the {@code partitions} of snapshot {@code snapshotId} from their read {@code splits}
   * and commits the new files in place of {@code replaced}.
   */
  void run(
      long snapshotId,
      Set<BinaryRow> partitions,
      List<DataSplit> splits,
      List<ManifestEntry> replaced) {
    Map<BinaryRow, List<DataSplit>> byPartition = new LinkedHashMap<>();
    for (BinaryRow partition : partitions) {
      byPartition.put(partition, new ArrayList<>());
    }
    for (DataSplit split : splits) {
      byPartition.get(split.partition()).add(split);
    }
    List<TaskInput> inputs = new ArrayList<>();
    byPartition.forEach((partition, parts) -> inputs.add(new TaskInput(partition, parts)));
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    jsc.setJobDescription("rescale " + table.name() + " to " + bucketCount + " buckets");
    FileStoreTable taskTable = table;
    int count = bucketCount;
    List<TaskResult> results =
        jsc.parallelize(inputs, inputs.size())
            .map(input -> runTask(taskTable, count, snapshotId, input))
            .collect();
    List<CommitMessage> messages = new ArrayList<>();
    TaskResult failed = null;
    for (TaskResult result : results) {
      if (result.error() != null) {
        failed = failed == null ? result : failed;
      } else {
        messages.addAll(result.messages());
      }
    }
    FileStoreCommit commit = table.newCommit(UUID.randomUUID().toString());
    if (failed != null) {
      commit.abort(messages);
      throw new io.basalt.BasaltException(
          String.format(
              "rescale of %s failed in partition %s; nothing was committed and the new files were"
                  + " deleted: %s",
              table.name(), failed.partition(), failed.error().getMessage()),
          failed.error());
    }
    try {
      commit.replaceFiles(replaced, messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
    } catch (CommitStateUnknownException e) {
      throw e; // the snapshot may reference the new files: delete nothing
    } catch (RuntimeException e) {
      commit.abort(messages);
      throw e;
    }
  }

  private static TaskResult runTask(
      FileStoreTable table, int bucketCount, long snapshotId, TaskInput input) {
    try {
      return new TaskResult(
          input.partition(),
          new PartitionRescaler(table, bucketCount).rescale(input.splits(), snapshotId),
          null);
    } catch (RuntimeException e) {
      return new TaskResult(input.partition(), null, e);
    }
  }
}

package io.basalt.spark.procedures;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.bucket.PostponedBucket;
import io.basalt.data.BinaryRow;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.compact.PostponedCompactor;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The first step of {@code CALL sys.compact} on a postponed-bucket table: one Spark task per
 * partition moves its postponed rows into its numbered buckets (its own count, or {@code
 * postpone.default-bucket-num} for a partition without buckets), and the driver commits every
 * partition's move as one COMPACT snapshot. When a task fails, the files the others wrote are
 * deleted and nothing is committed.
 */
final class PostponedCompactJob {
  private final FileStoreTable table;

  PostponedCompactJob(FileStoreTable table) {
    this.table = table;
  }

  /** A partition's postponed files and the bucket count they move into. */
  @DefaultSerializer(JavaSerializer.class)
  record TaskInput(DataSplit split, int bucketCount) implements Serializable {}

  /** A task's result: its messages, or why it failed. */
  @DefaultSerializer(JavaSerializer.class)
  record TaskResult(
      DataSplit split, @Nullable List<CommitMessage> messages, @Nullable Throwable error)
      implements Serializable {}

  /**
   * Moves the rows of the postponed splits among {@code splits} (the compaction plan of the
   * selected partitions) into numbered buckets and commits the move.
   *
   * @return whether anything was committed
   */
  boolean run(List<DataSplit> splits) {
    Map<BinaryRow, Integer> counts = new HashMap<>();
    for (DataSplit split : splits) {
      if (split.bucket() != PostponedBucket.BUCKET) {
        counts.put(split.partition(), split.totalBuckets());
      }
    }
    List<TaskInput> inputs = new ArrayList<>();
    for (DataSplit split : splits) {
      if (split.bucket() == PostponedBucket.BUCKET) {
        int existing = counts.getOrDefault(split.partition(), 0);
        inputs.add(new TaskInput(split, PostponedBucket.bucketCount(table, existing)));
      }
    }
    if (inputs.isEmpty()) {
      return false;
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    jsc.setJobDescription("compact the postponed bucket of " + table.name());
    FileStoreTable taskTable = table;
    List<TaskResult> results =
        jsc.parallelize(inputs, inputs.size()).map(input -> runTask(taskTable, input)).collect();
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
      throw CompactErrors.taskFailed(
          table.name(),
          "the postponed bucket of partition " + failed.split().partition(),
          failed.error());
    }
    // a failure before the snapshot exists deletes the moved rows' files; the postponed files stay
    commit.commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
    return true;
  }

  private static TaskResult runTask(FileStoreTable table, TaskInput input) {
    try {
      return new TaskResult(
          input.split(),
          new PostponedCompactor(table).compact(input.split(), input.bucketCount()),
          null);
    } catch (RuntimeException e) {
      return new TaskResult(input.split(), null, e);
    }
  }
}

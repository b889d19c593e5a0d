package io.basalt.spark.procedures;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a compaction as one Spark job with one task per bucket, then commits every bucket's result
 * once, on the driver, as a single COMPACT snapshot. A task never fails the job: it reports its
 * error, so that the driver knows the output of every task that did succeed and can delete it.
 */
final class CompactJob {
  private final FileStoreTable table;
  private final String commitUser = UUID.randomUUID().toString();

  CompactJob(FileStoreTable table) {
    this.table = table;
  }

  /** What one task does with its bucket. */
  interface BucketTask extends Serializable {
    CommitMessage run(DataSplit split);
  }

  /**
   * A task's bucket. Spark ships parallelized elements and collected results with {@code
   * spark.serializer}; under Kryo these records go through Java serialization.
   */
  @DefaultSerializer(JavaSerializer.class)
  record TaskInput(DataSplit split) implements Serializable {}

  /** A task's result: its compaction, or why it failed. */
  @DefaultSerializer(JavaSerializer.class)
  record TaskResult(
      @Nullable DataSplit split, @Nullable CommitMessage message, @Nullable Throwable error)
      implements Serializable {}

  /** What was committed. */
  record Outcome(OptionalLong snapshotId, long filesBefore, long filesAfter) {}

  /** The task of a merge-tree or small-file compaction. */
  static BucketTask bucketCompaction(FileStoreTable table, boolean full) {
    return split -> new BucketCompactor(table).compact(split, full);
  }

  /**
   * Runs {@code task} on each split and commits the results.
   *
   * @throws CommitConflictException when a concurrent commit removed a file being compacted; the
   *     new files are deleted and nothing is committed
   */
  Outcome run(List<DataSplit> splits, BucketTask task) {
    if (splits.isEmpty()) {
      return new Outcome(OptionalLong.empty(), 0, 0);
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    jsc.setJobDescription("compact " + table.name());
    List<TaskInput> inputs = splits.stream().map(TaskInput::new).toList();
    List<TaskResult> results =
        jsc.parallelize(inputs, inputs.size()).map(input -> runTask(task, input.split())).collect();
    List<CommitMessage> messages = new ArrayList<>();
    TaskResult failed = null;
    for (TaskResult result : results) {
      if (result.error() != null) {
        failed = failed == null ? result : failed;
      } else if (result.message().hasCompaction()) {
        messages.add(result.message());
      }
    }
    FileStoreCommit commit = table.newCommit(commitUser);
    if (failed != null) {
      commit.abort(messages);
      DataSplit split = failed.split();
      throw CompactErrors.taskFailed(
          table.name(),
          "bucket " + split.bucket() + " of partition " + split.partition(),
          failed.error());
    }
    return commit(commit, messages);
  }

  private static TaskResult runTask(BucketTask task, DataSplit split) {
    try {
      return new TaskResult(split, task.run(split), null);
    } catch (RuntimeException e) {
      return new TaskResult(split, null, e);
    }
  }

  private Outcome commit(FileStoreCommit commit, List<CommitMessage> messages) {
    long before = 0;
    long after = 0;
    for (CommitMessage message : messages) {
      before += message.compactBefore().size();
      after += message.compactAfter().size();
    }
    if (messages.isEmpty()) {
      return new Outcome(OptionalLong.empty(), 0, 0);
    }
    OptionalLong snapshotId;
    try {
      snapshotId = commit.commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
    } catch (CommitConflictException | CommitStateUnknownException e) {
      // a conflict already deleted the new files; an unknown state must delete nothing
      throw e;
    } catch (RuntimeException e) {
      // failed before any snapshot was written: the new files are referenced by nothing
      commit.abort(messages);
      throw e;
    }
    return new Outcome(snapshotId, before, after);
  }
}

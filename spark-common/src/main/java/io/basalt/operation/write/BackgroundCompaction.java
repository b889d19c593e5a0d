package io.basalt.operation.write;

import io.basalt.BasaltException;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.UniversalCompaction;
import io.basalt.options.CompactionOptions;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import javax.annotation.Nullable;

/**
 * The minor compactions of one primary-key bucket, run on the write's {@link CompactionThread}
 * while the bucket's writer goes on buffering rows. At most one compaction per bucket runs at a
 * time; it only rewrites files, and its result is applied to the levels on the writer's thread, so
 * the levels are never shared between threads. A writer whose bucket has more sorted runs than
 * {@code num-sorted-run.stop-trigger} waits for the running compaction (Paimon's back-pressure). A
 * failed compaction fails the write with its cause.
 */
final class BackgroundCompaction {
  private final BucketCompaction compaction;
  private final UniversalCompaction picker;
  private final Levels levels;
  private final CompactionThread thread;
  private final int stopTrigger;
  private final String bucketName;
  @Nullable private CompactUnit runningUnit;
  @Nullable private FutureTask<CompactRewriter.Rewritten> running;

  BackgroundCompaction(
      BucketCompaction compaction,
      UniversalCompaction picker,
      Levels levels,
      CompactionThread thread,
      int stopTrigger,
      String bucketName) {
    this.compaction = compaction;
    this.picker = picker;
    this.levels = levels;
    this.thread = thread;
    this.stopTrigger = stopTrigger;
    this.bucketName = bucketName;
  }

  /**
   * After a flush added a sorted run: applies a finished compaction, starts the next one when due,
   * and waits for the running one while the bucket has more runs than the stop trigger.
   */
  void afterFlush() {
    collect(false);
    startIfDue();
    if (running != null && levels.numberOfSortedRuns() > stopTrigger) {
      thread.countWait();
      collect(true);
      startIfDue();
    }
  }

  /** Waits for the running compaction and applies it: before the writer compacts or finishes. */
  void await() {
    collect(true);
  }

  private void startIfDue() {
    if (running != null) {
      return;
    }
    Optional<CompactUnit> unit = picker.pick(levels);
    if (unit.isEmpty()) {
      return;
    }
    CompactUnit picked = unit.get();
    running = new FutureTask<>(() -> compaction.rewrite(picked));
    runningUnit = picked;
    thread.execute(running);
  }

  private void collect(boolean wait) {
    if (running == null || (!wait && !running.isDone())) {
      return;
    }
    FutureTask<CompactRewriter.Rewritten> task = running;
    CompactUnit unit = runningUnit;
    running = null;
    runningUnit = null;
    compaction.record(unit, result(task));
  }

  /** The task's result; runs it here when the thread has not started it yet. */
  private CompactRewriter.Rewritten result(FutureTask<CompactRewriter.Rewritten> task) {
    task.run(); // a no-op when the thread runs or ran it
    try {
      return task.get();
    } catch (ExecutionException e) {
      throw failed(e.getCause());
    } catch (CancellationException e) {
      throw failed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(e);
    }
  }

  private BasaltException failed(Throwable cause) {
    return new BasaltException(
        String.format(
            "Background compaction of %s failed: %s. The write task fails and commits nothing;"
                + " Spark retries it. To write without compacting, set '%s' = 'true' and compact"
                + " later with CALL sys.compact(table => ...).",
            bucketName, cause, CompactionOptions.WRITE_ONLY.key()),
        cause);
  }

  /**
   * Abort: waits for the running compaction and deletes what it wrote; a failure of the compaction
   * itself is thrown, since the abort then already has a cause.
   */
  void abort() {
    if (running == null) {
      return;
    }
    FutureTask<CompactRewriter.Rewritten> task = running;
    CompactUnit unit = runningUnit;
    running = null;
    runningUnit = null;
    compaction.discard(unit, result(task));
  }
}

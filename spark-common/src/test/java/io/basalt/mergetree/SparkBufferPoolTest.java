package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.junit.jupiter.api.Test;

/**
 * The write buffers' pool inside a Spark task: Spark's task memory manager accounts it, may refuse
 * memory, and asks it to spill when another consumer of the task needs memory.
 */
class SparkBufferPoolTest {
  /** A task whose execution memory is about {@code bytes} (Spark keeps a share for storage). */
  private static TaskMemoryManager task(long bytes) {
    SparkConf conf = new SparkConf().set("spark.memory.storageFraction", "0");
    return new TaskMemoryManager(new UnifiedMemoryManager(conf, bytes, 0, 1), 0);
  }

  /** Another consumer of the task, such as Spark's own sort. */
  private static final class Other extends MemoryConsumer {
    Other(TaskMemoryManager memory) {
      super(memory, MemoryMode.ON_HEAP);
    }

    @Override
    public long spill(long size, MemoryConsumer trigger) {
      return 0;
    }
  }

  @Test
  void sparkAccountsTheBuffersAndGetsEveryByteBack() {
    TaskMemoryManager memory = task(1 << 20);
    SparkBufferPool pool = new SparkBufferPool(memory, 1 << 30);
    assertThat(pool.tryAcquire(100_000)).isTrue();
    assertThat(memory.getMemoryConsumptionForThisTask()).isEqualTo(100_000);
    pool.release(100_000);
    assertThat(memory.getMemoryConsumptionForThisTask()).isZero();
    assertThat(pool.used()).isZero();
  }

  @Test
  void sparkRefusesMemoryItDoesNotHaveAndTheBudgetStillCaps() {
    SparkBufferPool pool = new SparkBufferPool(task(1 << 20), 1 << 30);
    assertThat(pool.tryAcquire(4 << 20)).as("more than the task has").isFalse();
    assertThat(pool.used()).isZero();
    SparkBufferPool capped = new SparkBufferPool(task(1 << 20), 1000);
    assertThat(capped.tryAcquire(1001)).as("write-buffer-size caps it too").isFalse();
    capped.forceAcquire(1 << 19);
    assertThat(capped.used()).isEqualTo(1 << 19);
    capped.release(1 << 19);
    assertThat(capped.used()).isZero();
    assertThat(capped.getUsed()).isZero();
  }

  @Test
  void anotherConsumerNeedingMemoryMakesTheWriteSpill() {
    TaskMemoryManager memory = task(1 << 20);
    SparkBufferPool pool = new SparkBufferPool(memory, 1 << 30);
    List<Long> requests = new ArrayList<>();
    long[] held = {0};
    pool.onSpillRequest(
        bytes -> {
          requests.add(bytes);
          pool.release(held[0]); // what a flush of every buffer gives back
          long freed = held[0];
          held[0] = 0;
          return freed;
        });
    long execution = memory.getMemoryConsumptionForThisTask();
    while (pool.tryAcquire(64 << 10)) {
      held[0] += 64 << 10;
    }
    assertThat(held[0]).as("the pool took the task's memory").isPositive();
    assertThat(execution).isZero();

    Other sort = new Other(memory);
    long granted = sort.acquireMemory(256 << 10);
    assertThat(granted).as("Spark took it back from the write").isEqualTo(256 << 10);
    assertThat(requests).hasSize(1);
    assertThat(pool.used()).isZero();
    sort.freeMemory(granted);
  }

  @Test
  void aRequestThePoolTriggersItselfIsLeftToItsCaller() {
    SparkBufferPool pool = new SparkBufferPool(task(1 << 20), 1 << 30);
    pool.onSpillRequest(
        bytes -> {
          throw new AssertionError("the write flushes by itself when refused");
        });
    assertThat(pool.spill(1000, pool)).isZero();
  }

  @Test
  void aBadBudgetIsRefused() {
    assertThatThrownBy(() -> new SparkBufferPool(task(1 << 20), -1))
        .hasMessageContaining("Invalid write buffer size -1: it must be positive");
  }
}

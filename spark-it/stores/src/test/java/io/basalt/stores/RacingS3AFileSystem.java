package io.basalt.stores;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.util.Progressable;

/**
 * S3A that, once armed, holds the first {@code parties} creators of snapshot files at a barrier
 * until all of them got there: writers that read the same latest snapshot then create the same
 * snapshot id at the same moment, which is the race a commit primitive must decide.
 */
public class RacingS3AFileSystem extends S3AFileSystem {
  private static final AtomicInteger WAITING_SLOTS = new AtomicInteger();
  private static final AtomicInteger MET = new AtomicInteger();
  private static volatile CyclicBarrier barrier;

  /** Holds the next {@code parties} snapshot creators until all of them arrived. */
  static void arm(int parties) {
    barrier = new CyclicBarrier(parties, MET::incrementAndGet);
    WAITING_SLOTS.set(parties);
  }

  /** Whether the armed creators all met at the barrier (they raced for one id). */
  static boolean met() {
    return MET.get() > 0;
  }

  static void reset() {
    WAITING_SLOTS.set(0);
    MET.set(0);
    barrier = null;
  }

  /**
   * Holds an armed snapshot creator until every armed creator got here, so all of them passed their
   * own existence checks for the same id. Then the first to arrive goes on, and each later one
   * waits until the object of the one before exists: the PUTs reach the store one after another,
   * and only the store's answer to the later PUT can stop it from replacing the object. (Truly
   * simultaneous PUTs cannot be tested here: S3Mock checks If-None-Match without atomicity, so
   * concurrent conditional PUTs of one key all succeed against it.)
   */
  private void maybeWait(Path path) throws IOException {
    if (!path.getName().startsWith("snapshot-") || WAITING_SLOTS.getAndDecrement() <= 0) {
      return;
    }
    try {
      int arrival = barrier.await(60, TimeUnit.SECONDS);
      boolean first = arrival == barrier.getParties() - 1;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!first && !super.exists(path)) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the first racing writer never created " + path);
        }
        Thread.sleep(10);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted at the race barrier");
    } catch (BrokenBarrierException | TimeoutException e) {
      throw new IOException("the racing writers did not meet at " + path, e);
    }
  }

  @Override
  public FSDataOutputStreamBuilder createFile(Path path) {
    try {
      maybeWait(path);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return super.createFile(path);
  }

  @Override
  public FSDataOutputStream create(
      Path path,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    maybeWait(path);
    return super.create(path, permission, overwrite, bufferSize, replication, blockSize, progress);
  }
}

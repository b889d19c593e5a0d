package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One writer process of {@link DynamicBucketWriterProcessesIT}: writes keys {@code [0, rows)} into
 * an empty dynamic-bucket table, waits until every writer has written (a file per writer in {@code
 * barrier}), then commits. Exits 0 when its commit landed, 3 when it was refused as a conflict.
 */
public final class DynamicBucketWriterMain {
  static final int CONFLICT_EXIT = 3;

  private DynamicBucketWriterMain() {}

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    int writer = Integer.parseInt(args[1]);
    int rows = Integer.parseInt(args[2]);
    java.nio.file.Path barrier = java.nio.file.Path.of(args[3]);
    int writers = Integer.parseInt(args[4]);
    FileStoreTable table = FileStoreTable.load(FileIO.local(), root, "db.dynamic");
    TableWrite write = table.newWrite(null, false);
    for (int key = 0; key < rows; key++) {
      write.write(
          new GenericInternalRow(new Object[] {(long) key, UTF8String.fromString("w" + writer)}));
    }
    List<CommitMessage> messages = write.prepareCommit();
    Files.createFile(barrier.resolve("ready-" + writer));
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (Files.list(barrier).count() < writers) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the other writers never got ready");
      }
      Thread.sleep(5); // a process barrier, not a timing assumption
    }
    FileStoreCommit commit = table.newCommit("writer-" + writer).withDynamicBucketBase(null);
    try {
      commit.commit(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
      System.out.println("COMMITTED writer=" + writer);
    } catch (CommitConflictException e) {
      commit.abort(messages, null);
      System.out.println("CONFLICT writer=" + writer + ": " + e.getMessage());
      System.exit(CONFLICT_EXIT);
    }
  }
}

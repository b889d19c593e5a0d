package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.operation.commit.CommitConflictException;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A process of {@link KilledWritersIT}: either a writer that commits batches of keys of its own
 * (each batch one commit, identifier = batch number, also updating half of its previous batch's
 * keys so that merges and compactions have work), or a compactor that fully compacts every bucket
 * in a loop. Either may be killed with SIGKILL at any point.
 */
public final class CrashingWriterMain {
  private CrashingWriterMain() {}

  /** The key of row {@code i} of batch {@code batch} of {@code user}. */
  static long key(int writer, int batch, int i, int rows) {
    return writer * 10_000_000L + (long) batch * rows + i;
  }

  /** The value a batch writes for a key: the batch that wrote it last is visible in it. */
  static String value(String user, int batch, long key) {
    return user + "-b" + batch + "-k" + key;
  }

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    String role = args[1];
    FileStoreTable table = FileStoreTable.load(FileIO.local(), root, "db.crash");
    if (role.equals("compactor")) {
      compact(table, Integer.parseInt(args[2]));
    } else {
      write(table, role, Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
    }
  }

  private static void write(FileStoreTable table, String user, int writer, int batches, String rows)
      throws Exception {
    int perBatch = Integer.parseInt(rows);
    for (int b = 1; b <= batches; b++) {
      OptionalLong latest = table.snapshotManager().latestSnapshotId();
      TableWrite write = table.newWrite(latest.isPresent() ? latest.getAsLong() : null, false);
      for (int i = 0; i < perBatch; i++) {
        long key = key(writer, b, i, perBatch);
        write.write(row(key, value(user, b, key)));
      }
      if (b > 1) {
        for (int i = 0; i < perBatch; i += 2) {
          long key = key(writer, b - 1, i, perBatch);
          write.write(row(key, value(user, b, key)));
        }
      }
      List<CommitMessage> messages = write.prepareCommit();
      OptionalLong id = table.newCommit(user).commit(messages, b);
      System.out.println("COMMITTED " + user + " batch=" + b + " snapshot=" + id);
    }
    System.out.println("DONE " + user);
  }

  private static void compact(FileStoreTable table, int rounds) {
    for (int round = 0; round < rounds; round++) {
      List<CommitMessage> messages = new ArrayList<>();
      for (DataSplit split : table.newScan().forCompaction().plan().splits()) {
        CommitMessage message = new BucketCompactor(table).compact(split, true);
        if (message.hasCompaction()) {
          messages.add(message);
        }
      }
      if (messages.isEmpty()) {
        continue;
      }
      try {
        OptionalLong id =
            table
                .newCommit("compactor")
                .commitCompaction(messages, Snapshot.BATCH_COMMIT_IDENTIFIER);
        System.out.println("COMPACTED snapshot=" + id);
      } catch (CommitConflictException e) {
        System.out.println("COMPACTION CONFLICT " + e.getMessage());
      }
    }
    System.out.println("DONE compactor");
  }

  private static GenericInternalRow row(long key, String value) {
    return new GenericInternalRow(new Object[] {key, UTF8String.fromString(value)});
  }
}

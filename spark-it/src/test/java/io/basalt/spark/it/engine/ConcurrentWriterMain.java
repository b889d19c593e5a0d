package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One writer process of {@link ConcurrentWriterProcessesIT}: commits {@code commits} times to the
 * table, each time {@code rows} keys of its own key range, through the engine API.
 */
public final class ConcurrentWriterMain {
  private ConcurrentWriterMain() {}

  /** The key of row {@code i} of commit {@code commit} of {@code writer}. */
  static long key(int writer, int commit, int i, int rows) {
    return writer * 1_000_000L + (long) commit * rows + i;
  }

  static String value(int writer, int commit, long key) {
    return "w" + writer + "-c" + commit + "-k" + key;
  }

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    int writer = Integer.parseInt(args[1]);
    int commits = Integer.parseInt(args[2]);
    int rows = Integer.parseInt(args[3]);
    FileStoreTable table = FileStoreTable.load(FileIO.local(), root, "db.concurrent");
    String user = "writer-" + writer;
    for (int c = 0; c < commits; c++) {
      OptionalLong latest = table.snapshotManager().latestSnapshotId();
      TableWrite write = table.newWrite(latest.isPresent() ? latest.getAsLong() : null, false);
      for (int i = 0; i < rows; i++) {
        long key = key(writer, c, i, rows);
        write.write(
            new GenericInternalRow(
                new Object[] {key, UTF8String.fromString(value(writer, c, key))}));
      }
      List<CommitMessage> messages = write.prepareCommit();
      OptionalLong id = table.newCommit(user).commit(messages, c + 1);
      System.out.println("COMMITTED writer=" + writer + " commit=" + c + " snapshot=" + id);
    }
    System.out.println("DONE writer=" + writer);
  }
}

package io.basalt.spark.it.engine;

import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The forked JVM of {@link BoundedMemoryIT}: {@code rounds} overlapping upsert rounds of {@code
 * rows} rows (id, ~92-byte payload) into a 4-bucket primary-key table, then one full read. Prints
 * one {@code RESULT key=value ...} line; exits 0 only when the read matches the model.
 */
public final class BoundedMemoryMain {
  private BoundedMemoryMain() {}

  /** ~92 bytes: round and key up front so every version differs, then padding. */
  static String payload(int round, long key) {
    String head = "r" + round + "-k" + key + "-";
    StringBuilder sb = new StringBuilder(92).append(head);
    long x = key * 0x9E3779B97F4A7C15L + round;
    while (sb.length() < 92) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      sb.append((char) ('a' + (int) ((x >>> 1) % 26)));
    }
    return sb.toString();
  }

  static long mix(long key, UTF8String value) {
    long h = key * 0x9E3779B97F4A7C15L ^ value.hashCode();
    return h ^ (h >>> 29);
  }

  public static void main(String[] args) throws Exception {
    Path root = new Path(args[0]);
    int rounds = Integer.parseInt(args[1]);
    long rows = Long.parseLong(args[2]);
    long offset = rows / 2; // round r writes [r*offset, r*offset + rows): half of it updates
    // "flush" (default): full buffers become level-0 files; "spill": they spill to local disk
    boolean spill = args.length > 3 && "spill".equals(args[3]);
    StructType type =
        new StructType().add("id", DataTypes.LongType, false).add("payload", DataTypes.StringType);
    FileStoreTable table =
        FileStoreTable.create(
            FileIO.local(),
            root,
            "db.bounded",
            SchemaFactory.create(
                0,
                type,
                List.of(),
                List.of("id"),
                // write-only: this test is about writers and merge reads, not compaction
                Map.of(
                    "write-only",
                    "true",
                    "write-buffer-spillable",
                    String.valueOf(spill),
                    "bucket",
                    "4",
                    "write-buffer-size",
                    spill ? "64mb" : "16mb",
                    "parquet.block.size",
                    "8mb",
                    "target-file-size",
                    spill ? "256mb" : "64mb"),
                null));

    long writeStart = System.nanoTime();
    long flushes = 0;
    long spilledBytes = 0;
    long rowBytes = 0;
    GenericInternalRow row = new GenericInternalRow(2);
    for (int r = 0; r < rounds; r++) {
      Long base =
          table.snapshotManager().latestSnapshotId().isPresent()
              ? table.snapshotManager().latestSnapshotId().getAsLong()
              : null;
      TableWrite write = table.newWrite(base, false);
      for (long i = 0; i < rows; i++) {
        long key = r * offset + i;
        UTF8String value = UTF8String.fromString(payload(r, key));
        row.update(0, key);
        row.update(1, value);
        write.write(row);
        rowBytes += 8 + value.numBytes();
      }
      flushes += write.flushCount();
      List<CommitMessage> messages = write.prepareCommit();
      spilledBytes += write.spilledBytes();
      table.newCommit("bounded").commit(messages, r + 1);
      System.out.printf(
          "round %d committed, flushes so far %d, heap used %d MB%n", r, flushes, usedHeapMb());
    }
    long writeMs = (System.nanoTime() - writeStart) / 1_000_000;

    // the model: key k was last written by round min(k / offset, rounds - 1)
    long distinct = (rounds - 1) * offset + rows;
    long expectedChecksum = 0;
    for (long key = 0; key < distinct; key++) {
      int round = (int) Math.min(key / offset, rounds - 1);
      expectedChecksum += mix(key, UTF8String.fromString(payload(round, key)));
    }

    long readStart = System.nanoTime();
    List<DataSplit> splits = table.newScan().plan().splits();
    TreeMap<Integer, Integer> levelZeroPerBucket = new TreeMap<>();
    long files = 0;
    for (DataSplit split : splits) {
      for (DataFileMeta file : split.files()) {
        files++;
        if (file.level() == 0) {
          levelZeroPerBucket.merge(split.bucket(), 1, Integer::sum);
        }
      }
    }
    SplitRead read = table.newRead(type);
    long count = 0;
    long checksum = 0;
    long maxHeap = 0;
    for (DataSplit split : splits) {
      try (CloseableIterator<InternalRow> it = read.read(split)) {
        while (it.hasNext()) {
          InternalRow r = it.next();
          count++;
          checksum += mix(r.getLong(0), r.getUTF8String(1));
          if ((count & 0xFFFFF) == 0) {
            maxHeap = Math.max(maxHeap, usedHeapMb());
          }
        }
      }
    }
    long readMs = (System.nanoTime() - readStart) / 1_000_000;
    boolean ok = count == distinct && checksum == expectedChecksum;
    System.out.println(
        "RESULT ok="
            + ok
            + " spilledBytes="
            + spilledBytes
            + " rows="
            + count
            + " distinct="
            + distinct
            + " checksum="
            + checksum
            + " expectedChecksum="
            + expectedChecksum
            + " rowBytes="
            + rowBytes
            + " flushes="
            + flushes
            + " files="
            + files
            + " splits="
            + splits.size()
            + " levelZeroPerBucket="
            + levelZeroPerBucket.toString().replace(" ", "")
            + " writeMs="
            + writeMs
            + " readMs="
            + readMs
            + " readHeapMb="
            + maxHeap
            + " kvColumns="
            + new KeyValueLayout(table.schema()).fileSchema().size());
    System.exit(ok ? 0 : 1);
  }

  private static long usedHeapMb() {
    Runtime rt = Runtime.getRuntime();
    return (rt.totalMemory() - rt.freeMemory()) >> 20;
  }
}

package io.basalt.operation.compact;

import io.basalt.BasaltException;
import io.basalt.bucket.PostponedBucket;
import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.CompactionOptions;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;

/**
 * Moves the rows of one partition's postponed bucket ({@code bucket-postpone}, bucket -2) into the
 * partition's numbered buckets: the {@code CALL sys.compact} step that makes them visible. The
 * postponed files are merged by key, their versions in write order (sequence number, or the table's
 * sequence field), and each key's merged row, retractions included, is written to its bucket as a
 * new version, after everything the bucket already holds. Memory: one row per postponed file, plus
 * the bucket writers' spillable buffers.
 */
public final class PostponedCompactor {
  private final FileStoreTable table;

  public PostponedCompactor(FileStoreTable table) {
    this.table = table;
  }

  /**
   * Compacts {@code postponed}, every postponed file of one partition.
   *
   * @param bucketCount the partition's bucket count (its own, or {@code
   *     postpone.default-bucket-num} when it has none yet)
   * @return as one compaction: the new level-0 files of the numbered buckets, and the removal of
   *     the postponed files
   * @throws BasaltException when a postponed file is not Parquet (Paimon writes Avro ones)
   */
  public List<CommitMessage> compact(DataSplit postponed, int bucketCount) {
    checkParquet(postponed);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<DataField> values = layout.valueFields();
    DataType[] valueTypes = new DataType[values.size()];
    for (int i = 0; i < valueTypes.length; i++) {
      valueTypes[i] = values.get(i).type();
    }
    ProjectedRow value = ProjectedRow.offset(valueTypes, layout.valueOffset());
    SplitRead read = table.newRead(table.rowType());
    // write-only: the moved rows are committed as one COMPACT snapshot with the removal of the
    // postponed files; compacting the buckets (moving level 0 up) is the procedure's next step
    FileStoreTable target =
        table.copyWithOptions(
            Map.of(
                TableOptions.BUCKET.key(),
                String.valueOf(bucketCount),
                CompactionOptions.WRITE_ONLY.key(),
                "true"));
    TableWrite write = target.newWrite(postponed.snapshotId(), false);
    try (MergeIterator merged =
        new MergeIterator(
            read.openRuns(postponed, layout, layout.fileSchema()),
            layout,
            SequenceOrder.of(table.schema(), table.options(), table.name())
                .comparator(layout, values),
            MergeEngine.of(table).newMergeFunction(layout, values),
            true)) {
      while (merged.hasNext()) {
        InternalRow row = merged.next();
        write.write(value.replace(row), kind(row.getByte(layout.kindIndex())));
      }
      List<CommitMessage> messages = new ArrayList<>();
      for (CommitMessage written : write.prepareCommit()) {
        messages.add(
            new CommitMessage(
                written.partition(),
                written.bucket(),
                written.totalBuckets(),
                List.of(),
                List.of(),
                written.newFiles()));
      }
      messages.add(
          new CommitMessage(
              postponed.partition(),
              PostponedBucket.BUCKET,
              PostponedBucket.BUCKET,
              List.of(),
              postponed.files(),
              List.of()));
      return messages;
    } catch (RuntimeException e) {
      write.abort();
      throw e;
    }
  }

  private void checkParquet(DataSplit postponed) {
    for (DataFileMeta file : postponed.files()) {
      if (!file.fileName().endsWith(".parquet")) {
        throw new BasaltException(
            String.format(
                "Cannot compact the postponed bucket of table %s: file %s is not Parquet (Paimon"
                    + " writes postponed files in Avro, which Basalt does not read). Nothing was"
                    + " committed. Fix: compact the table once with Paimon (its postpone-bucket"
                    + " compaction), then write and compact it with Basalt.",
                table.name(), file.fileName()));
      }
    }
  }

  private static RowKind kind(byte value) {
    for (RowKind kind : RowKind.values()) {
      if (kind.value() == value) {
        return kind;
      }
    }
    throw new IllegalStateException("Unknown row kind byte " + value);
  }
}

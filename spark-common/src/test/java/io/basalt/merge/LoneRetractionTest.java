package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.KeyValues;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.mergetree.compact.SortedRun;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.operation.write.CompactRewriter;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key's lone retraction stays the row it was wherever older data may lie below (the write buffer,
 * its spills, minor compaction) instead of becoming a +I of {@code retract(null, value)}, and is
 * retracted from the older data when it meets it; where nothing lies below, it leaves no row.
 */
class LoneRetractionTest {
  /** id (key), total (sum), lv (last_value), lnn (last_non_null_value). */
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("total", DataTypes.LongType)
          .add("lv", DataTypes.StringType)
          .add("lnn", DataTypes.StringType);

  private static final Map<String, String> AGGREGATION =
      Map.of(
          "bucket", "1",
          "write-only", "true",
          "merge-engine", "aggregation",
          "fields.total.aggregate-function", "sum",
          "fields.lv.aggregate-function", "last_value");

  @TempDir Path dir;

  @Test
  void theWriteBufferAndItsSpillsKeepALoneRetraction() {
    FileStoreTable table = create(AGGREGATION);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    MergeEngine engine = MergeEngine.of(table);
    KeyValues buffer =
        new KeyValues(
            layout,
            table.name(),
            SequenceOrder.bySequenceNumber(layout),
            () -> engine.newMergeFunction(layout, layout.valueFields()));
    long sequence = 0;
    buffer.add(row(1, 4L, "x", "y"), sequence++, RowKind.UPDATE_BEFORE.value());
    buffer.add(row(2, 5L, "a", "b"), sequence++, RowKind.INSERT.value());
    buffer.spill(dir.resolve("spill"));
    buffer.add(row(3, 7L, "q", "r"), sequence++, RowKind.DELETE.value());
    buffer.add(row(2, 1L, "c", null), sequence++, RowKind.UPDATE_BEFORE.value());
    try (CloseableIterator<InternalRow> merged = buffer.sortedMerged()) {
      assertThat(describe(merged, layout))
          .containsExactly(
              // the spilled lone -U, as written
              "1 -U 4 x y",
              // two versions merge: +I 5 a b, then -U 1 c (last_value clears, lnn keeps b)
              "2 +I 4 null b",
              // the in-memory lone -D, as written
              "3 -D 7 q r");
    } finally {
      buffer.clear();
    }
  }

  @Test
  void minorCompactionKeepsALoneRetractionAndTheReadRetractsIt() {
    FileStoreTable table = create(AGGREGATION);
    write(table, RowKind.INSERT, row(1, 10L, "a", "n"));
    compact(table, true);
    write(table, RowKind.UPDATE_BEFORE, row(1, 4L, "a", "n"));

    DataSplit split = onlySplit(table);
    List<DataFileMeta> level0 = new ArrayList<>();
    int bottom = 0;
    for (DataFileMeta file : split.files()) {
      if (file.level() == 0) {
        level0.add(file);
      }
      bottom = Math.max(bottom, file.level());
    }
    assertThat(level0).hasSize(1);
    assertThat(bottom).isGreaterThan(1);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    assertThat(rawRows(table, split, level0)).containsExactly("1 -U 4 a n");

    // a minor compaction into level 1, with the bottom level below: the -U must stay a -U
    CompactUnit unit =
        new CompactUnit(1, List.of(new LevelSortedRun(0, new SortedRun(level0))), false);
    List<DataFileMeta> compacted =
        new CompactRewriter(table)
            .rewrite(split.partition(), split.bucket(), split.totalBuckets(), unit);
    assertThat(rawRows(table, split, compacted)).containsExactly("1 -U 4 a n");

    assertThat(readAll(table)).containsExactly("1 6 null null");
    compact(table, true);
    assertThat(readAll(table)).containsExactly("1 6 null null");
  }

  @Test
  void aKeyWithOnlyRetractionsHasNoRowButItsRetractionsStillApplyBelow() {
    FileStoreTable table = create(AGGREGATION);
    write(table, RowKind.INSERT, row(1, 10L, "a", "n"));
    compact(table, true);
    write(table, RowKind.UPDATE_BEFORE, row(1, 4L, "a", "n"), row(2, 3L, "b", "m"));
    write(table, RowKind.DELETE, row(1, 1L, null, null), row(2, 2L, "c", "o"));
    // key 2 never had a row: its retractions (lone per file, then two merged) leave none
    assertThat(readAll(table)).containsExactly("1 5 null null");
    compact(table, false);
    assertThat(readAll(table)).containsExactly("1 5 null null");
    compact(table, true);
    assertThat(readAll(table)).containsExactly("1 5 null null");
  }

  @Test
  void partialUpdateKeyWithOnlyRetractionsHasNoRow() {
    FileStoreTable table =
        create(
            Map.of(
                "bucket", "1",
                "write-only", "true",
                "merge-engine", "partial-update",
                "fields.total.sequence-group", "lv,lnn"));
    write(table, RowKind.INSERT, row(1, 1L, "a", null));
    write(table, RowKind.UPDATE_BEFORE, row(1, 2L, "a", null), row(2, 1L, "b", null));
    write(table, RowKind.DELETE, row(2, 2L, "b", null));
    // key 1 keeps its row with the group retracted; key 2 only ever received retractions
    assertThat(readAll(table)).containsExactly("1 2 null null");
    compact(table, true);
    assertThat(readAll(table)).containsExactly("1 2 null null");
  }

  // ---- helpers ----

  private FileStoreTable create(Map<String, String> options) {
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.resolve("t").toUri()),
        "db.t",
        SchemaFactory.create(0, SCHEMA, List.of(), List.of("id"), options, null));
  }

  private static InternalRow row(long id, Long total, String lv, String lnn) {
    return new GenericInternalRow(new Object[] {id, total, utf8(lv), utf8(lnn)});
  }

  private static UTF8String utf8(String value) {
    return value == null ? null : UTF8String.fromString(value);
  }

  private static void write(FileStoreTable table, RowKind kind, InternalRow... rows) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (InternalRow row : rows) {
      write.write(row, kind);
    }
    table.newCommit("test").commit(write.prepareCommit(), System.nanoTime());
  }

  private static void compact(FileStoreTable table, boolean full) {
    CommitMessage message = new BucketCompactor(table).compact(onlySplit(table), full);
    table.newCommit("compact").commitCompaction(List.of(message), Long.MAX_VALUE);
  }

  private static DataSplit onlySplit(FileStoreTable table) {
    List<DataSplit> splits = table.newScan().plan().splits();
    assertThat(splits).hasSize(1);
    return splits.get(0);
  }

  /** The key-value rows of {@code files} as stored: "key kind total lv lnn". */
  private static List<String> rawRows(
      FileStoreTable table, DataSplit split, List<DataFileMeta> files) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    DataSplit only =
        new DataSplit(0, split.partition(), split.bucket(), split.totalBuckets(), files, false);
    List<String> out = new ArrayList<>();
    for (CloseableIterator<InternalRow> run :
        table.newRead(SCHEMA).openRuns(only, layout, layout.fileSchema())) {
      try (run) {
        out.addAll(describe(run, layout));
      }
    }
    return out;
  }

  private static List<String> describe(CloseableIterator<InternalRow> rows, KeyValueLayout layout) {
    List<String> out = new ArrayList<>();
    int v = layout.valueOffset();
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      out.add(
          row.getLong(0)
              + " "
              + RowKind.values()[row.getByte(layout.kindIndex())].shortString()
              + " "
              + (row.isNullAt(v + 1) ? "null" : row.getLong(v + 1))
              + " "
              + (row.isNullAt(v + 2) ? "null" : row.getUTF8String(v + 2))
              + " "
              + (row.isNullAt(v + 3) ? "null" : row.getUTF8String(v + 3)));
    }
    return out;
  }

  private static List<String> readAll(FileStoreTable table) {
    List<String> out = new ArrayList<>();
    for (DataSplit split : table.newScan().plan().splits()) {
      try (CloseableIterator<InternalRow> rows = table.newRead(SCHEMA).read(split)) {
        while (rows.hasNext()) {
          InternalRow row = rows.next();
          out.add(
              row.getLong(0)
                  + " "
                  + (row.isNullAt(1) ? "null" : row.getLong(1))
                  + " "
                  + (row.isNullAt(2) ? "null" : row.getUTF8String(2))
                  + " "
                  + (row.isNullAt(3) ? "null" : row.getUTF8String(3)));
        }
      }
    }
    return out;
  }
}

package io.basalt.rowtracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.SimpleStats;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class RowIdAssignmentTest {

  private static DataFileMeta file(String name, long rows, int source, SimpleStats stats) {
    return DataFileMeta.newFile(
        name,
        100,
        rows,
        BinaryRow.EMPTY,
        BinaryRow.EMPTY,
        SimpleStats.EMPTY,
        stats,
        0,
        rows - 1,
        0,
        0,
        0,
        source,
        null);
  }

  private static ManifestEntry add(DataFileMeta file) {
    return new ManifestEntry(FileKind.ADD, BinaryRow.EMPTY, 0, -1, file);
  }

  @Test
  void writtenFilesTakeConsecutiveIdsAndTheSnapshotAsSequenceNumber() {
    DataFileMeta a = file("a", 3, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    DataFileMeta compacted = file("c", 5, DataFileMeta.SOURCE_COMPACT, SimpleStats.EMPTY);
    DataFileMeta b = file("b", 2, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    ManifestEntry deleted =
        new ManifestEntry(
            FileKind.DELETE, BinaryRow.EMPTY, 0, -1, a.withRowTracking(0L, 1, 1).withLevel(0));
    List<ManifestEntry> assigned =
        RowIdAssignment.assign(List.of(add(a), add(compacted), add(b), deleted), 7, null);

    assertThat(assigned.get(0).file().firstRowId()).isEqualTo(0L);
    assertThat(assigned.get(1).file().firstRowId()).isNull();
    assertThat(assigned.get(2).file().firstRowId()).isEqualTo(3L);
    for (ManifestEntry entry : assigned.subList(0, 3)) {
      assertThat(entry.file().minSequenceNumber()).isEqualTo(7);
      assertThat(entry.file().maxSequenceNumber()).isEqualTo(7);
    }
    assertThat(assigned.get(3)).isSameAs(deleted);
    assertThat(RowIdAssignment.nextRowId(assigned, null)).isEqualTo(5);
  }

  @Test
  void blobFilesTakeTheIdsOfTheDataFileBeforeThem() {
    DataFileMeta data1 = file("data-1.parquet", 5, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    DataFileMeta image1 = blob("data-2.blob", 3, "image");
    DataFileMeta image2 = blob("data-3.blob", 2, "image");
    DataFileMeta thumb1 = blob("data-4.blob", 5, "thumb");
    DataFileMeta data2 = file("data-5.parquet", 4, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    DataFileMeta image3 = blob("data-6.blob", 4, "image");
    Snapshot latest = snapshotWithNextRowId(100);
    List<ManifestEntry> assigned =
        RowIdAssignment.assign(
            List.of(add(data1), add(image1), add(image2), add(thumb1), add(data2), add(image3)),
            3,
            latest);

    assertThat(assigned.stream().map(e -> e.file().firstRowId()))
        .containsExactly(100L, 100L, 103L, 100L, 105L, 105L);
    assertThat(RowIdAssignment.nextRowId(assigned, latest)).isEqualTo(109);
  }

  @Test
  void blobFilesPastTheirDataFileAreABug() {
    DataFileMeta data = file("data-1.parquet", 2, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    DataFileMeta image = blob("data-2.blob", 3, "image");
    assertThatThrownBy(() -> RowIdAssignment.assign(List.of(add(data), add(image)), 1, null))
        .hasMessage("Blob file data-2.blob has rows past its data file's (ids up to 2)");
  }

  private static Snapshot snapshotWithNextRowId(long nextRowId) {
    return new Snapshot(
        3,
        2,
        0,
        "base",
        null,
        "delta",
        null,
        null,
        null,
        null,
        "user",
        1,
        CommitKind.APPEND,
        0,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        nextRowId);
  }

  private static DataFileMeta blob(String name, long rows, String column) {
    return file(name, rows, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY)
        .withWriteCols(List.of(column));
  }

  @Test
  void filesThatHaveIdsKeepThem() {
    DataFileMeta moved = file("m", 4, DataFileMeta.SOURCE_APPEND, SimpleStats.EMPTY);
    List<ManifestEntry> assigned =
        RowIdAssignment.assign(List.of(add(moved.withRowTracking(10L, 2, 2))), 3, null);
    assertThat(assigned.get(0).file().firstRowId()).isEqualTo(10L);
    assertThat(RowIdAssignment.nextRowId(assigned, null)).isEqualTo(14);
  }

  @Test
  void rangeOfAFileWithoutStoredIdsFollowsItsFirstRowId() {
    DataFileMeta plain =
        file("p", 10, DataFileMeta.SOURCE_APPEND, stats(2, new Long[] {1L, 2L}, 0L))
            .withRowTracking(40L, 1, 1);
    ColumnStatistics range = RowIdRange.of(plain, 2);
    assertThat(range.min()).isEqualTo(40L);
    assertThat(range.max()).isEqualTo(49L);
    assertThat(RowIdRange.of(file("n", 10, 0, SimpleStats.EMPTY), 2))
        .isEqualTo(ColumnStatistics.UNKNOWN);
  }

  @Test
  void rangeOfAFileWithStoredIdsCoversThemAndItsOwnRange() {
    // columns: a, b, _ROW_ID (ids 5..9 stored, 2 rows null), _SEQUENCE_NUMBER
    SimpleStats stats = statsWithRowIds(5L, 9L, 2L);
    DataFileMeta rewritten = file("r", 7, 0, stats).withRowTracking(100L, 3, 3);
    ColumnStatistics range = RowIdRange.of(rewritten, 2);
    assertThat(range.min()).isEqualTo(5L);
    assertThat(range.max()).isEqualTo(106L);

    DataFileMeta compacted = file("c", 5, 1, statsWithRowIds(5L, 9L, 0L));
    ColumnStatistics compactedRange = RowIdRange.of(compacted, 2);
    assertThat(compactedRange.min()).isEqualTo(5L);
    assertThat(compactedRange.max()).isEqualTo(9L);
  }

  /** Stats of {@code arity} BIGINT columns, all with min {@code values[i]} = max. */
  private static SimpleStats stats(int arity, Long[] values, long nulls) {
    BinaryRowCodec codec = new BinaryRowCodec(longs(arity));
    BinaryRow row = codec.toBinary(new GenericInternalRow(values));
    Long[] counts = new Long[arity];
    Arrays.fill(counts, nulls);
    return new SimpleStats(row, row, Arrays.asList(counts));
  }

  private static SimpleStats statsWithRowIds(long min, long max, long nulls) {
    BinaryRowCodec codec = new BinaryRowCodec(longs(4));
    BinaryRow lower = codec.toBinary(new GenericInternalRow(new Object[] {1L, 1L, min, 1L}));
    BinaryRow upper = codec.toBinary(new GenericInternalRow(new Object[] {2L, 2L, max, 3L}));
    return new SimpleStats(lower, upper, List.of(0L, 0L, nulls, 0L));
  }

  private static org.apache.spark.sql.types.DataType[] longs(int n) {
    org.apache.spark.sql.types.DataType[] types = new org.apache.spark.sql.types.DataType[n];
    Arrays.fill(types, DataTypes.LongType);
    return types;
  }
}

package io.basalt.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.options.Options;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BlobCompactionTest {
  private static final long TARGET = 100;
  private static final List<String> IMAGE = List.of("image");

  private static DataFileMeta file(String name, long size, long firstRowId, long rows) {
    return DataFileMeta.newFile(
            name,
            size,
            rows,
            BinaryRow.EMPTY,
            BinaryRow.EMPTY,
            SimpleStats.EMPTY,
            SimpleStats.EMPTY,
            1,
            1,
            0,
            0,
            0,
            DataFileMeta.SOURCE_APPEND,
            null)
        .withRowTracking(firstRowId, 1, 1)
        .withWriteCols(List.of(name.endsWith(".blob") ? "image" : "id"));
  }

  @Test
  void adjacentSmallDataFilesMergeAndBlobFilesStay() {
    DataFileMeta a = file("a.parquet", 10, 0, 5);
    DataFileMeta blobA = file("a.blob", 5000, 0, 5);
    DataFileMeta b = file("b.parquet", 10, 5, 3);
    DataFileMeta blobB = file("b.blob", 5000, 5, 3);
    DataFileMeta c = file("c.parquet", 10, 8, 2);
    assertThat(BlobCompaction.pick(List.of(c, blobB, b, blobA, a), IMAGE, false, TARGET, 2, 50))
        .containsExactly(List.of(a, b, c));
  }

  @Test
  void aGapInTheRowIdsOrALargeFileEndsARun() {
    DataFileMeta a = file("a.parquet", 10, 0, 5);
    DataFileMeta b = file("b.parquet", 10, 5, 5);
    DataFileMeta gap = file("c.parquet", 10, 20, 5); // ids 10..19 live in another partition
    DataFileMeta d = file("d.parquet", 10, 25, 5);
    DataFileMeta large = file("e.parquet", 150, 30, 5);
    DataFileMeta f = file("f.parquet", 10, 35, 5);
    List<DataFileMeta> files = List.of(a, b, gap, d, large, f);
    assertThat(BlobCompaction.pick(files, IMAGE, false, TARGET, 2, 50))
        .containsExactly(List.of(a, b), List.of(gap, d));
    // full takes the large file too, but a group still stops at the target size
    assertThat(BlobCompaction.pick(files, IMAGE, true, TARGET, 5, 50))
        .containsExactly(List.of(a, b), List.of(gap, d));
    assertThat(BlobCompaction.pick(files, IMAGE, true, 1000, 5, 50))
        .containsExactly(List.of(a, b), List.of(gap, d, large, f));
  }

  @Test
  void dataFilesThatHoldABlobColumnThemselvesAreLeftAlone() {
    DataFileMeta a = file("a.parquet", 10, 0, 5);
    DataFileMeta old = file("b.parquet", 10, 5, 5).withWriteCols(List.of("id", "image"));
    DataFileMeta c = file("c.parquet", 10, 10, 5);
    DataFileMeta d = file("d.parquet", 10, 15, 5);
    assertThat(BlobCompaction.pick(List.of(a, old, c, d), IMAGE, true, TARGET, 2, 50))
        .containsExactly(List.of(c, d));
  }

  @Test
  void groupsRespectTheTargetSizeAndFileCounts() {
    List<DataFileMeta> files =
        List.of(
            file("a.parquet", 40, 0, 1),
            file("b.parquet", 40, 1, 1),
            file("c.parquet", 40, 2, 1),
            file("d.parquet", 40, 3, 1),
            file("e.parquet", 40, 4, 1));
    assertThat(BlobCompaction.pick(files, IMAGE, false, TARGET, 2, 50))
        .containsExactly(files.subList(0, 2), files.subList(2, 4));
    assertThat(BlobCompaction.pick(files, IMAGE, false, 1000, 2, 3))
        .containsExactly(files.subList(0, 3), files.subList(3, 5));
    assertThat(BlobCompaction.pick(files, IMAGE, false, 1000, 6, 50)).isEmpty();
    assertThat(BlobCompaction.pick(files.subList(0, 1), IMAGE, true, 1000, 1, 50)).isEmpty();
  }

  @Test
  void reclusteringBlobTablesIsRefused() {
    StructType row =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("image", DataTypes.BinaryType)
            .add("frames", DataTypes.createArrayType(DataTypes.BinaryType));
    assertThatThrownBy(
            () ->
                BlobCompaction.checkNoReclustering(
                    row, new Options(Map.of("blob-field", "image"), "table"), "db.images"))
        .hasMessageStartingWith(
            "Cannot re-cluster db.images: it keeps BLOB column(s) [image] in .blob files"
                + " ('blob-field')")
        .hasMessageContaining("Fix: compact it without order_strategy");
    BlobCompaction.checkNoReclustering(
        row, new Options(Map.of("row-tracking.enabled", "true"), "table"), "db.plain");
  }
}

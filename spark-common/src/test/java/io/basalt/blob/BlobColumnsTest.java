package io.basalt.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.options.Options;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BlobColumnsTest {
  private static final StructType ROW =
      new StructType()
          .add("id", DataTypes.IntegerType)
          .add("image", DataTypes.BinaryType)
          .add("frames", DataTypes.createArrayType(DataTypes.BinaryType))
          .add("thumb", DataTypes.BinaryType);

  private static Options options(Map<String, String> values) {
    return new Options(values, "table");
  }

  @Test
  void binaryArrayAndMapColumnsOfBlobFieldGoToBlobFiles() {
    Options options = options(Map.of("blob-field", " thumb, frames,image"));
    assertThat(BlobColumns.of(ROW, options)).containsExactly("image", "frames", "thumb");
    assertThat(BlobColumns.of(ROW, options(Map.of()))).isEmpty();
    assertThat(BlobColumns.targetFileSize(options)).isEqualTo(128L << 20);
    assertThat(
            BlobColumns.targetFileSize(
                options(Map.of("target-file-size", "1 mb", "blob.target-file-size", "2 kb"))))
        .isEqualTo(2048);
    assertThat(BlobColumns.targetFileSize(options(Map.of("target-file-size", "1 mb"))))
        .isEqualTo(1 << 20);
  }

  @Test
  void arrangeKeepsEachDataFileWithItsBlobFilesAndDropsOrphans() {
    DataFileMeta data0 = file("a.parquet", 0, 5);
    DataFileMeta blob0 = file("b.blob", 0, 3);
    DataFileMeta blob3 = file("c.blob", 3, 2);
    DataFileMeta data5 = file("d.parquet", 5, 4);
    DataFileMeta blob5 = file("e.blob", 5, 4);
    DataFileMeta orphan = file("f.blob", 20, 4); // its data file was filtered out
    List<DataFileMeta> arranged =
        BlobColumns.arrange(List.of(blob5, orphan, data5, blob3, blob0, data0));
    assertThat(arranged).containsExactly(data0, blob0, blob3, data5, blob5);
  }

  private static DataFileMeta file(String name, long firstRowId, long rows) {
    return DataFileMeta.newFile(
            name,
            10,
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
        .withRowTracking(firstRowId, 1, 1);
  }
}

package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write's data files take the zstd level from {@code file.compression.zstd-level} (Paimon's
 * default 1), and primary-key files skip the dictionary of columns that never repeat in a file.
 */
class DataFileConfTest {
  @TempDir Path dir;

  @Test
  void zstdLevelIsPaimonsDefaultOrTheTableOption() {
    FileStoreTable plain = TestTables.create(dir.resolve("a"), true, List.of(), Map.of());
    assertThat(DataFileConf.of(plain).get(DataFileConf.ZSTD_LEVEL)).isEqualTo("1");
    FileStoreTable nine =
        TestTables.create(
            dir.resolve("b"), true, List.of(), Map.of("file.compression.zstd-level", "9"));
    assertThat(DataFileConf.of(nine).get(DataFileConf.ZSTD_LEVEL)).isEqualTo("9");
  }

  @Test
  void aZstdLevelBelowOneIsRefusedNamingTheOption() {
    FileStoreTable table =
        TestTables.create(
            dir.resolve("c"), true, List.of(), Map.of("file.compression.zstd-level", "0"));
    assertThatThrownBy(() -> DataFileConf.of(table))
        .hasMessageContaining("file.compression.zstd-level")
        .hasMessageContaining("0");
  }

  @Test
  void primaryKeyFilesSkipTheDictionaryOfSequenceNumbersAndTheOneKeyColumn() throws IOException {
    FileStoreTable table =
        TestTables.create(dir.resolve("t"), true, List.of(), Map.of("bucket", "1"));
    assertThat(DataFileConf.uniqueColumns(table))
        .containsExactly("_SEQUENCE_NUMBER", "_KEY_id", "id");
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 500; id++) {
      write.write(TestTables.row(id, "v" + id % 3));
    }
    table.newCommit("user").commit(write.prepareCommit(), 1);

    Set<String> dictionary = dictionaryColumns(onlyDataFile(dir.resolve("t")));
    assertThat(dictionary).contains("v", "_VALUE_KIND");
    assertThat(dictionary).doesNotContain("_SEQUENCE_NUMBER", "_KEY_id", "id");
    assertThat(TestTables.readAll(table)).hasSize(500);
  }

  @Test
  void appendTablesAndCompositeKeysKeepEveryDictionary() {
    FileStoreTable append = TestTables.create(dir.resolve("u"), false, List.of(), Map.of());
    assertThat(DataFileConf.uniqueColumns(append)).isEmpty();
    // key (id, p) partitioned by p trims to id; unpartitioned composite keys keep both columns
    FileStoreTable partitioned =
        TestTables.create(dir.resolve("w"), true, List.of("p"), Map.of("bucket", "1"));
    assertThat(DataFileConf.uniqueColumns(partitioned))
        .containsExactly("_SEQUENCE_NUMBER", "_KEY_id", "id");
  }

  private static Path onlyDataFile(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      List<Path> data = files.filter(p -> p.getFileName().toString().startsWith("data-")).toList();
      assertThat(data).hasSize(1);
      return data.get(0);
    }
  }

  private static Set<String> dictionaryColumns(Path file) throws IOException {
    Set<String> columns = new HashSet<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      for (ColumnChunkMetaData column : reader.getFooter().getBlocks().get(0).getColumns()) {
        if (column.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
            || column.getEncodings().contains(Encoding.RLE_DICTIONARY)) {
          columns.add(column.getPath().toDotString());
        }
      }
    }
    return columns;
  }
}

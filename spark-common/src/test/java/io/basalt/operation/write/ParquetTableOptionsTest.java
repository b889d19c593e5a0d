package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.options.TableOptionCheck;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's {@code parquet.*} options reach the Parquet writer of its data files, as in Paimon:
 * each one honoured changes the footer of the file written (row groups, pages, dictionaries, bloom
 * filters, page version), and a bad value fails naming the option and the value.
 */
class ParquetTableOptionsTest {
  private static final int ROWS = 20_000;

  @TempDir Path dir;
  private int tables;

  @Test
  void theDictionarySwitchTurnsEveryDictionaryOff() throws IOException {
    assertThat(dictionaryColumns(write(Map.of()))).contains("v", "_VALUE_KIND");
    assertThat(dictionaryColumns(write(Map.of("parquet.enable.dictionary", "false")))).isEmpty();
    // Paimon matches the prefix case-insensitively
    assertThat(dictionaryColumns(write(Map.of("PARQUET.enable.dictionary", "false")))).isEmpty();
    // a column the table names keeps its own setting over the unique-column default
    assertThat(
            DataFileConf.of(table(Map.of("parquet.enable.dictionary#_SEQUENCE_NUMBER", "true")))
                .get("parquet.enable.dictionary#_SEQUENCE_NUMBER"))
        .isEqualTo("true");
  }

  @Test
  void theBlockSizeSplitsRowGroups() throws IOException {
    assertThat(write(Map.of()).getBlocks()).hasSize(1);
    ParquetMetadata small = write(Map.of("parquet.block.size", "8 kb"));
    assertThat(small.getBlocks().size()).isGreaterThan(4);
    assertThat(small.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum())
        .isEqualTo(ROWS);
  }

  @Test
  void thePageSizeAndPageRowLimitSplitPages() throws IOException {
    long defaultPages = pageCount(Map.of(), "id");
    assertThat(pageCount(Map.of("parquet.page.size", "1 kb"), "id")).isGreaterThan(defaultPages);
    assertThat(pageCount(Map.of("parquet.page.row.count.limit", "1000"), "id"))
        .isGreaterThanOrEqualTo(ROWS / 1000);
    assertThat(defaultPages).isLessThan(ROWS / 1000);
  }

  @Test
  void aSmallDictionaryPageSizeMakesALargeDictionaryFallBack() throws IOException {
    assertThat(dictionaryColumns(write(Map.of()))).contains("v");
    assertThat(dictionaryColumns(write(Map.of("parquet.dictionary.page.size", "1 kb"))))
        .doesNotContain("v");
  }

  @Test
  void writerVersionTwoWritesRleDictionaryPages() throws IOException {
    assertThat(encodings(write(Map.of()), "v")).contains(Encoding.PLAIN_DICTIONARY);
    assertThat(encodings(write(Map.of("parquet.writer.version", "v2")), "v"))
        .contains(Encoding.RLE_DICTIONARY)
        .doesNotContain(Encoding.PLAIN_DICTIONARY);
  }

  @Test
  void bloomFiltersAreWrittenForTheColumnsNamed() throws IOException {
    assertThat(bloomFilterColumns(write(Map.of()))).isEmpty();
    // Parquet writes no bloom filter for a column whose pages are all dictionary-encoded (v)
    assertThat(bloomFilterColumns(write(Map.of("parquet.bloom.filter.enabled#id", "true"))))
        .containsExactly("id");
    assertThat(
            bloomFilterColumns(
                write(
                    Map.of(
                        "parquet.bloom.filter.enabled", "true",
                        "parquet.bloom.filter.expected.ndv#id", "20000"))))
        .containsExactlyInAnyOrder("id", "_KEY_id", "_SEQUENCE_NUMBER");
  }

  @Test
  void theCodecIsTheTablesAndTheParquetZstdLevelWinsOverFileCompression() throws IOException {
    assertThat(codecs(write(Map.of()))).containsOnly(CompressionCodecName.ZSTD);
    assertThat(codecs(write(Map.of("file.compression", "snappy"))))
        .containsOnly(CompressionCodecName.SNAPPY);
    FileStoreTable table =
        table(
            Map.of(
                "file.compression.zstd-level", "3", "parquet.compression.codec.zstd.level", "7"));
    Configuration conf = DataFileConf.of(table);
    assertThat(conf.get(DataFileConf.ZSTD_LEVEL)).isEqualTo("7");
    assertThat(conf.get(DataFileConf.ZSTD_BUFFER_POOL)).isEqualTo("true");
    assertThat(
            DataFileConf.of(table(Map.of("file.compression.zstd-level", "3")))
                .get(DataFileConf.ZSTD_LEVEL))
        .isEqualTo("3");
  }

  @Test
  void badValuesAreRefusedAtCreateNamingTheOptionAndTheValue() {
    assertThatThrownBy(
            () ->
                TableOptionCheck.check(
                    Map.of("parquet.page.row.count.limit", "many"), List.of("id", "v"), "db.t"))
        .hasMessageContaining("parquet.page.row.count.limit")
        .hasMessageContaining("many")
        .hasMessageContaining("db.t");
    assertThatThrownBy(
            () ->
                TableOptionCheck.check(
                    Map.of("parquet.writer.version", "v3"), List.of("id", "v"), "db.t"))
        .hasMessageContaining("parquet.writer.version")
        .hasMessageContaining("v3");
  }

  @Test
  void perColumnOptionsAreAcceptedAtCreateAndCheckedThere() {
    List<String> columns = List.of("id", "v");
    TableOptionCheck.check(
        Map.of(
            "parquet.enable.dictionary#v", "false",
            "parquet.bloom.filter.enabled#_KEY_id", "true",
            "parquet.bloom.filter.expected.ndv#id", "1000",
            "parquet.enable.dictionary#_SEQUENCE_NUMBER", "true"),
        columns,
        "db.t");
    assertThatThrownBy(
            () ->
                TableOptionCheck.check(
                    Map.of("parquet.enable.dictionary#nope", "false"), columns, "db.t"))
        .hasMessageContaining("'parquet.enable.dictionary#nope'")
        .hasMessageContaining("column 'nope'")
        .hasMessageContaining("db.t")
        .hasMessageContaining("Fix: name one of its columns: id, v");
    assertThatThrownBy(
            () ->
                TableOptionCheck.check(
                    Map.of("parquet.bloom.filter.expected.ndv#id", "-3"), columns, "db.t"))
        .hasMessageContaining("Invalid value '-3'")
        .hasMessageContaining("'parquet.bloom.filter.expected.ndv#id'")
        .hasMessageContaining("expected a positive integer");
    assertThatThrownBy(
            () -> TableOptionCheck.check(Map.of("parquet.page.size#v", "1 kb"), columns, "db.t"))
        .hasMessageContaining("Unknown per-column Parquet option 'parquet.page.size#v'")
        .hasMessageContaining(
            "parquet.bloom.filter.enabled, parquet.bloom.filter.expected.ndv,"
                + " parquet.enable.dictionary");
  }

  @Test
  void aBadPerColumnValueFailsTheWriteNamingTheSettingAndTheValue() {
    FileStoreTable table = table(Map.of("parquet.bloom.filter.expected.ndv#v", "-3"));
    TableWrite write = table.newWrite(null, false);
    write.write(TestTables.row(1, "a"));
    assertThatThrownBy(write::prepareCommit)
        .hasStackTraceContaining("Invalid value '-3' for Parquet setting")
        .hasStackTraceContaining("'parquet.bloom.filter.expected.ndv#v'")
        .hasStackTraceContaining("expected a positive integer");
    write.abort();
  }

  @Test
  void aBadDeclaredValueSetWithoutCreateFailsTheWriteNamingTheTable() {
    FileStoreTable table = table(Map.of("parquet.dictionary.page.size", "lots"));
    assertThatThrownBy(() -> DataFileConf.of(table))
        .hasMessageContaining("parquet.dictionary.page.size")
        .hasMessageContaining("lots")
        .hasMessageContaining("db.t");
  }

  private FileStoreTable table(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("bucket", "1");
    return TestTables.create(dir.resolve("t" + tables++), true, List.of(), all);
  }

  /** Writes ROWS rows into a new one-bucket table with {@code options}; its data file's footer. */
  private ParquetMetadata write(Map<String, String> options) throws IOException {
    FileStoreTable table = table(options);
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < ROWS; id++) {
      // 500 distinct values of about 40 bytes: a dictionary of about 20 kB
      write.write(
          TestTables.row(
              id, String.format(Locale.ROOT, "value-%05d-%s", id % 500, "x".repeat(28))));
    }
    table.newCommit("user").commit(write.prepareCommit(), 1);
    assertThat(TestTables.readAll(table)).hasSize(ROWS);
    return footer(onlyDataFile(dir.resolve("t" + (tables - 1))));
  }

  private long pageCount(Map<String, String> options, String column) throws IOException {
    FileStoreTable table = table(options);
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < ROWS; id++) {
      write.write(TestTables.row(id, "v"));
    }
    table.newCommit("user").commit(write.prepareCommit(), 1);
    Path file = onlyDataFile(dir.resolve("t" + (tables - 1)));
    try (ParquetFileReader reader = open(file)) {
      long pages = 0;
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          if (chunk.getPath().toDotString().equals(column)) {
            pages += reader.readOffsetIndex(chunk).getPageCount();
          }
        }
      }
      return pages;
    }
  }

  private static List<String> dictionaryColumns(ParquetMetadata footer) {
    return footer.getBlocks().get(0).getColumns().stream()
        .filter(
            c ->
                c.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
                    || c.getEncodings().contains(Encoding.RLE_DICTIONARY))
        .map(c -> c.getPath().toDotString())
        .toList();
  }

  private static List<Encoding> encodings(ParquetMetadata footer, String column) {
    return footer.getBlocks().get(0).getColumns().stream()
        .filter(c -> c.getPath().toDotString().equals(column))
        .flatMap(c -> c.getEncodings().stream())
        .toList();
  }

  private static List<String> bloomFilterColumns(ParquetMetadata footer) {
    return footer.getBlocks().get(0).getColumns().stream()
        .filter(c -> c.getBloomFilterOffset() >= 0)
        .map(c -> c.getPath().toDotString())
        .toList();
  }

  private static List<CompressionCodecName> codecs(ParquetMetadata footer) {
    return footer.getBlocks().get(0).getColumns().stream()
        .map(ColumnChunkMetaData::getCodec)
        .toList();
  }

  private static Path onlyDataFile(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      List<Path> data = files.filter(p -> p.getFileName().toString().startsWith("data-")).toList();
      assertThat(data).hasSize(1);
      return data.get(0);
    }
  }

  private static ParquetMetadata footer(Path file) throws IOException {
    try (ParquetFileReader reader = open(file)) {
      return reader.getFooter();
    }
  }

  private static ParquetFileReader open(Path file) throws IOException {
    return ParquetFileReader.open(
        HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()));
  }
}

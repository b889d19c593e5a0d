package io.basalt.options;

/**
 * Parquet writer settings a table may set as {@code parquet.*} options, as Paimon passes every
 * {@code parquet.}-prefixed table option to its Parquet writer. The row-group and page sizes are in
 * {@link WriteOptions}. Per-column forms ({@code parquet.enable.dictionary#<column>}, {@code
 * parquet.bloom.filter.enabled#<column>}, {@code parquet.bloom.filter.expected.ndv#<column>}) are
 * passed on as well and checked when a file is written.
 */
public final class ParquetOptions {
  private ParquetOptions() {}

  /** The prefix of the table options handed to the Parquet writer. */
  public static final String PREFIX = "parquet.";

  public static final ConfigOption<Boolean> PARQUET_ENABLE_DICTIONARY =
      ConfigOption.key("parquet.enable.dictionary")
          .booleanType()
          .defaultValue(true)
          .description(
              "Dictionary-encode the columns of Parquet data files; 'parquet.enable.dictionary#<column>'"
                  + " sets one column. Primary-key files skip the dictionary of columns that never"
                  + " repeat in a file (_SEQUENCE_NUMBER, a one-column key) unless set per column.");

  public static final ConfigOption<Long> PARQUET_DICTIONARY_PAGE_SIZE =
      ConfigOption.key("parquet.dictionary.page.size")
          .memoryType()
          .atLeast(1)
          .defaultValue(1L << 20)
          .description(
              "Largest dictionary of a Parquet column chunk; a column whose dictionary grows past it"
                  + " is written plainly.");

  public static final ConfigOption<Integer> PARQUET_PAGE_ROW_COUNT_LIMIT =
      ConfigOption.key("parquet.page.row.count.limit")
          .intType()
          .atLeast(1)
          .defaultValue(20_000)
          .description("Most rows of one Parquet page.");

  public static final ConfigOption<String> PARQUET_WRITER_VERSION =
      ConfigOption.key("parquet.writer.version")
          .enumType("v1", "v2")
          .defaultValue("v1")
          .description(
              "Parquet data page version of data files: v1 (as Paimon writes by default) or v2."
                  + " Paimon 1.3.1's reader was seen to misread plain string columns of v2 files.");

  public static final ConfigOption<Boolean> PARQUET_BLOOM_FILTER_ENABLED =
      ConfigOption.key("parquet.bloom.filter.enabled")
          .booleanType()
          .defaultValue(false)
          .description(
              "Write a bloom filter for every column of Parquet data files;"
                  + " 'parquet.bloom.filter.enabled#<column>' sets one column.");

  public static final ConfigOption<Integer> PARQUET_ZSTD_LEVEL =
      ConfigOption.key("parquet.compression.codec.zstd.level")
          .intType()
          .atLeast(1)
          .description(
              "Zstandard level of Parquet data files; when set it wins over"
                  + " file.compression.zstd-level, as in Paimon.");
}

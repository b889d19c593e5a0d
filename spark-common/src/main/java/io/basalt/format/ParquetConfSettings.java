package io.basalt.format;

import java.util.Locale;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.spark.sql.types.StructType;

/**
 * Applies the {@code parquet.*} settings of a Hadoop configuration to a Parquet writer builder.
 * Parquet's builder reads none of them from its configuration (only its output format does), so
 * without this a table's {@code parquet.enable.dictionary} or {@code parquet.writer.version} would
 * be ignored. Whole-file settings and, where Parquet has them, per-column ones ({@code
 * <key>#<column>}, top-level columns) are applied. Row-group and page sizes come from {@link
 * ParquetWriteOptions}; the zstd level and buffer pool are read by Parquet's codec itself.
 */
final class ParquetConfSettings {
  private ParquetConfSettings() {}

  /**
   * Applies the settings {@code conf} holds to {@code builder}.
   *
   * @throws IllegalArgumentException naming the setting and its value when a value does not parse
   */
  static <B extends ParquetWriter.Builder<?, B>> B apply(
      B builder, Configuration conf, StructType fileSchema) {
    set(
        conf,
        ParquetOutputFormat.ENABLE_DICTIONARY,
        ParquetConfSettings::flag,
        builder::withDictionaryEncoding);
    set(
        conf,
        ParquetOutputFormat.DICTIONARY_PAGE_SIZE,
        ParquetConfSettings::positiveInt,
        builder::withDictionaryPageSize);
    set(
        conf,
        ParquetOutputFormat.PAGE_ROW_COUNT_LIMIT,
        ParquetConfSettings::positiveInt,
        builder::withPageRowCountLimit);
    set(
        conf,
        ParquetOutputFormat.WRITER_VERSION,
        ParquetConfSettings::writerVersion,
        builder::withWriterVersion);
    set(
        conf,
        ParquetOutputFormat.BLOOM_FILTER_ENABLED,
        ParquetConfSettings::flag,
        builder::withBloomFilterEnabled);
    set(
        conf,
        ParquetOutputFormat.BLOOM_FILTER_MAX_BYTES,
        ParquetConfSettings::positiveInt,
        builder::withMaxBloomFilterBytes);
    set(
        conf,
        ParquetOutputFormat.MAX_PADDING_BYTES,
        ParquetConfSettings::nonNegativeInt,
        builder::withMaxPaddingSize);
    set(
        conf,
        ParquetOutputFormat.STATISTICS_TRUNCATE_LENGTH,
        ParquetConfSettings::positiveInt,
        builder::withStatisticsTruncateLength);
    set(
        conf,
        ParquetOutputFormat.COLUMN_INDEX_TRUNCATE_LENGTH,
        ParquetConfSettings::positiveInt,
        builder::withColumnIndexTruncateLength);
    set(
        conf,
        ParquetOutputFormat.PAGE_WRITE_CHECKSUM_ENABLED,
        ParquetConfSettings::flag,
        builder::withPageWriteChecksumEnabled);
    for (String column : fileSchema.fieldNames()) {
      set(
          conf,
          ParquetOutputFormat.ENABLE_DICTIONARY + "#" + column,
          ParquetConfSettings::flag,
          value -> builder.withDictionaryEncoding(column, value));
      set(
          conf,
          ParquetOutputFormat.BLOOM_FILTER_ENABLED + "#" + column,
          ParquetConfSettings::flag,
          value -> builder.withBloomFilterEnabled(column, value));
      set(
          conf,
          ParquetOutputFormat.BLOOM_FILTER_EXPECTED_NDV + "#" + column,
          ParquetConfSettings::positiveLong,
          value -> builder.withBloomFilterNDV(column, value));
    }
    return builder;
  }

  /** Parses the text of one setting, naming the setting when it cannot. */
  @FunctionalInterface
  private interface Parser<T> {
    T parse(String key, String text);
  }

  private static <T> void set(Configuration conf, String key, Parser<T> parser, Consumer<T> apply) {
    String text = conf.get(key);
    if (text != null) {
      apply.accept(parser.parse(key, text));
    }
  }

  private static boolean flag(String key, String value) {
    String text = value.trim();
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw invalid(key, value, "true or false");
    }
    return Boolean.parseBoolean(text);
  }

  private static int positiveInt(String key, String value) {
    return (int) number(key, value, 1, Integer.MAX_VALUE, "a positive integer");
  }

  private static int nonNegativeInt(String key, String value) {
    return (int) number(key, value, 0, Integer.MAX_VALUE, "an integer of at least 0");
  }

  private static long positiveLong(String key, String value) {
    return number(key, value, 1, Long.MAX_VALUE, "a positive integer");
  }

  private static long number(String key, String value, long min, long max, String expected) {
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below with the setting's name
    }
    throw invalid(key, value, expected);
  }

  private static WriterVersion writerVersion(String key, String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    return switch (text) {
      case "v1", "parquet_1_0" -> WriterVersion.PARQUET_1_0;
      case "v2", "parquet_2_0" -> WriterVersion.PARQUET_2_0;
      default -> throw invalid(key, value, "v1 or v2");
    };
  }

  private static IllegalArgumentException invalid(String key, String value, String expected) {
    return new IllegalArgumentException(
        String.format(
            "Invalid value '%s' for Parquet setting '%s': expected %s. Fix: set the table option"
                + " '%s' to %s, or remove it",
            value, key, expected, key, expected));
  }
}

package io.basalt.operation.write;

import io.basalt.options.ConfigOption;
import io.basalt.options.Options;
import io.basalt.options.ParquetOptions;
import io.basalt.options.WriteOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Passes a table's {@code parquet.*} options to the Hadoop configuration its Parquet writers read,
 * as Paimon hands every option with its format's prefix to the format's writer. The prefix is
 * matched case-insensitively (as Paimon does) and written lower-case. Options Basalt declares are
 * parsed first, so a size may be given as {@code 2 mb} and a bad value names the table.
 */
final class TableParquetSettings {
  /** The declared options whose values the configuration needs in Parquet's own form. */
  private static final List<ConfigOption<?>> DECLARED =
      List.of(
          ParquetOptions.PARQUET_ENABLE_DICTIONARY,
          ParquetOptions.PARQUET_DICTIONARY_PAGE_SIZE,
          ParquetOptions.PARQUET_PAGE_ROW_COUNT_LIMIT,
          ParquetOptions.PARQUET_WRITER_VERSION,
          ParquetOptions.PARQUET_BLOOM_FILTER_ENABLED,
          ParquetOptions.PARQUET_ZSTD_LEVEL,
          WriteOptions.PARQUET_BLOCK_SIZE,
          WriteOptions.PARQUET_PAGE_SIZE);

  private TableParquetSettings() {}

  /**
   * Sets each {@code parquet.*} option of {@code options} in {@code conf}, replacing what the
   * configuration had for that key.
   *
   * @throws io.basalt.BasaltException naming the option, the table and the value when a declared
   *     option does not parse
   */
  static void copy(Options options, Configuration conf) {
    for (Map.Entry<String, String> e : options.toMap().entrySet()) {
      String key = e.getKey();
      if (key.toLowerCase(Locale.ROOT).startsWith(ParquetOptions.PREFIX)) {
        conf.set(
            ParquetOptions.PREFIX + key.substring(ParquetOptions.PREFIX.length()), e.getValue());
      }
    }
    for (ConfigOption<?> option : DECLARED) {
      if (options.contains(option)) {
        conf.set(option.key(), String.valueOf(options.get(option)));
      }
    }
  }
}

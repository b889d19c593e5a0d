package io.basalt.operation.write;

import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.FileCompressionOptions;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration one write hands its Parquet data-file writers: the table's file system
 * configuration plus what the table options decide about encoding, derived once per write.
 *
 * <ul>
 *   <li>The zstd level is {@code file.compression.zstd-level} (Paimon's default 1; Parquet's own
 *       default is 3, which writes about a third slower for a few percent smaller files).
 *   <li>Primary-key files turn dictionary encoding off for columns whose values cannot repeat in a
 *       file: {@code _SEQUENCE_NUMBER} (one number per row) and, for a one-column trimmed primary
 *       key, the key column and its {@code _KEY_} copy (a file holds one version of each key).
 *       Parquet would build a dictionary for each, find it no smaller and write the page again
 *       plainly: the hash map and the second encoding are wasted work. A setting the Hadoop
 *       configuration or the table options set for a column ({@code
 *       parquet.enable.dictionary#<column>}) wins.
 *   <li>Every {@code parquet.*} table option is passed on, as Paimon does ({@link
 *       TableParquetSettings}); {@code parquet.compression.codec.zstd.level} wins over {@code
 *       file.compression.zstd-level}.
 *   <li>zstd reuses its buffers (Parquet's {@code bufferPool.enabled}): without the pool every page
 *       compressed allocates and zeroes zstd's working buffers anew.
 * </ul>
 */
final class DataFileConf {
  /** Parquet's setting of the zstd level. */
  static final String ZSTD_LEVEL = "parquet.compression.codec.zstd.level";

  /** Parquet's switch for reusing zstd's buffers across pages and files (off by default). */
  static final String ZSTD_BUFFER_POOL = "parquet.compression.codec.zstd.bufferPool.enabled";

  /** Parquet's dictionary switch; {@code #<column>} after it sets one column. */
  static final String DICTIONARY = "parquet.enable.dictionary";

  private DataFileConf() {}

  static Configuration of(FileStoreTable table) {
    Configuration conf = new Configuration(table.fileIO().conf());
    int level = table.options().get(FileCompressionOptions.FILE_COMPRESSION_ZSTD_LEVEL);
    conf.setInt(ZSTD_LEVEL, level);
    if (conf.get(ZSTD_BUFFER_POOL) == null) {
      conf.setBoolean(ZSTD_BUFFER_POOL, true);
    }
    TableParquetSettings.copy(table.options(), conf);
    for (String column : uniqueColumns(table)) {
      String key = DICTIONARY + "#" + column;
      if (conf.get(key) == null) {
        conf.setBoolean(key, false);
      }
    }
    return conf;
  }

  /** Columns of the table's data files that hold a different value in every row of a file. */
  static List<String> uniqueColumns(FileStoreTable table) {
    List<String> columns = new ArrayList<>();
    if (!table.hasPrimaryKey()) {
      return columns;
    }
    columns.add(KeyValueLayout.SEQUENCE_NUMBER);
    List<String> keys = table.schema().trimmedPrimaryKeys();
    if (keys.size() == 1) {
      columns.add(KeyValueLayout.KEY_PREFIX + keys.get(0));
      columns.add(keys.get(0));
    }
    return columns;
  }
}

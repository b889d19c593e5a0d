package io.basalt.format;

import io.basalt.utils.Check;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Settings of one Parquet data file writer.
 *
 * @param compression Parquet codec name, case-insensitive ({@code zstd}, {@code snappy}, {@code
 *     uncompressed}, ...)
 * @param rowGroupSize target row-group size in bytes
 * @param pageSize target page size in bytes
 * @param overwrite whether an existing file at the path is replaced; otherwise creating fails
 * @param dictionaryHints what earlier files of the same write learned about dictionaries, shared by
 *     every file written with these options; null to let Parquet try every dictionary
 */
public record ParquetWriteOptions(
    String compression,
    long rowGroupSize,
    int pageSize,
    boolean overwrite,
    @Nullable DictionaryHints dictionaryHints) {

  /** Table option naming the compression codec. */
  public static final String COMPRESSION_KEY = "file.compression";

  /** Parquet option for the row-group size in bytes. */
  public static final String ROW_GROUP_SIZE_KEY = "parquet.block.size";

  /** Parquet option for the page size in bytes. */
  public static final String PAGE_SIZE_KEY = "parquet.page.size";

  public static final String DEFAULT_COMPRESSION = "zstd";
  public static final long DEFAULT_ROW_GROUP_SIZE = 128L * 1024 * 1024;
  public static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

  /** Options without dictionary hints. */
  public ParquetWriteOptions(
      String compression, long rowGroupSize, int pageSize, boolean overwrite) {
    this(compression, rowGroupSize, pageSize, overwrite, null);
  }

  public ParquetWriteOptions {
    Check.notNull(compression, "compression");
    Check.argument(rowGroupSize > 0, "Invalid row-group size %s: must be positive", rowGroupSize);
    Check.argument(pageSize > 0, "Invalid page size %s: must be positive", pageSize);
  }

  /** The defaults: zstd, 128 MB row groups, 1 MB pages, no overwrite. */
  public static ParquetWriteOptions defaults() {
    return new ParquetWriteOptions(
        DEFAULT_COMPRESSION, DEFAULT_ROW_GROUP_SIZE, DEFAULT_PAGE_SIZE, false);
  }

  /**
   * Options read from table options {@link #COMPRESSION_KEY}, {@link #ROW_GROUP_SIZE_KEY} and
   * {@link #PAGE_SIZE_KEY}, each falling back to its default.
   *
   * @throws IllegalArgumentException naming the option when a size is not a positive number
   */
  public static ParquetWriteOptions fromTableOptions(Map<String, String> options) {
    String compression = options.getOrDefault(COMPRESSION_KEY, DEFAULT_COMPRESSION);
    long rowGroupSize = parseSize(options, ROW_GROUP_SIZE_KEY, DEFAULT_ROW_GROUP_SIZE);
    long pageSize = parseSize(options, PAGE_SIZE_KEY, DEFAULT_PAGE_SIZE);
    Check.argument(
        pageSize <= Integer.MAX_VALUE,
        "Invalid value '%s' for option '%s': expected at most %s bytes",
        pageSize,
        PAGE_SIZE_KEY,
        Integer.MAX_VALUE);
    return new ParquetWriteOptions(compression, rowGroupSize, (int) pageSize, false);
  }

  /** A copy that replaces an existing file. */
  public ParquetWriteOptions withOverwrite(boolean newOverwrite) {
    return new ParquetWriteOptions(
        compression, rowGroupSize, pageSize, newOverwrite, dictionaryHints);
  }

  /** A copy whose files share {@code hints} (see {@link DictionaryHints}). */
  public ParquetWriteOptions withDictionaryHints(@Nullable DictionaryHints hints) {
    return new ParquetWriteOptions(compression, rowGroupSize, pageSize, overwrite, hints);
  }

  private static long parseSize(Map<String, String> options, String key, long defaultValue) {
    String text = options.get(key);
    if (text == null) {
      return defaultValue;
    }
    try {
      long value = Long.parseLong(text.trim());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        String.format(
            "Invalid value '%s' for option '%s': expected a positive number of bytes", text, key));
  }
}

package io.basalt.options;

/** Options of data-file compression beyond the codec ({@code file.compression}). */
public final class FileCompressionOptions {
  private FileCompressionOptions() {}

  public static final ConfigOption<Integer> FILE_COMPRESSION_ZSTD_LEVEL =
      ConfigOption.key("file.compression.zstd-level")
          .intType()
          .atLeast(1)
          .defaultValue(1)
          .description(
              "Zstandard level of data files when file.compression is zstd, as Paimon's default"
                  + " (1); higher levels, up to 22, compress more but write much slower.");
}

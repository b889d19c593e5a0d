package io.basalt.options;

/** Options of manifest files and manifest merging. */
public final class ManifestOptions {
  private ManifestOptions() {}

  public static final ConfigOption<String> MANIFEST_FORMAT =
      ConfigOption.key("manifest.format")
          .enumType("avro", "parquet")
          .defaultValue("avro")
          .description(
              "File format of manifests, manifest lists and index manifests written from now on;"
                  + " files of either format are read whatever the option says.");

  public static final ConfigOption<String> MANIFEST_COMPRESSION =
      ConfigOption.key("manifest.compression")
          .enumType("zstd")
          .defaultValue("zstd")
          .description(
              "Compression of manifests: the zstandard codec, for Avro and Parquet manifests.");

  public static final ConfigOption<Long> MANIFEST_TARGET_FILE_SIZE =
      ConfigOption.key("manifest.target-file-size")
          .memoryType()
          .atLeast(1)
          .defaultValue(8L << 20)
          .description("Size of manifest files written when manifests are merged.");

  public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
      ConfigOption.key("manifest.merge-min-count")
          .intType()
          .atLeast(1)
          .defaultValue(30)
          .description(
              "Manifests are grouped in order until a group reaches manifest.target-file-size and"
                  + " then merged into full-size ones; the last group, still smaller, is merged once"
                  + " it holds this many manifests. Full-size manifests are kept as they are.");

  public static final ConfigOption<Long> MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE =
      ConfigOption.key("manifest.full-compaction-threshold-size")
          .memoryType()
          .atLeast(1)
          .defaultValue(16L << 20)
          .description(
              "When the manifests after the leading full-size ones without DELETE entries reach"
                  + " this size, they are merged with the full-size manifests that may hold the"
                  + " files they delete, so ADD and DELETE pairs of the same file are dropped.");
}

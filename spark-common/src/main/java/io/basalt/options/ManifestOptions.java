package io.basalt.options;

/** Options of manifest files and manifest merging. */
public final class ManifestOptions {
  private ManifestOptions() {}

  public static final ConfigOption<String> MANIFEST_FORMAT =
      ConfigOption.key("manifest.format")
          .enumType("avro")
          .defaultValue("avro")
          .description("File format of manifests and manifest lists. Basalt writes Avro.");

  public static final ConfigOption<String> MANIFEST_COMPRESSION =
      ConfigOption.key("manifest.compression")
          .enumType("zstd")
          .defaultValue("zstd")
          .description("Compression of manifests (the Avro codec zstandard).");

  public static final ConfigOption<Long> MANIFEST_TARGET_FILE_SIZE =
      ConfigOption.key("manifest.target-file-size")
          .memoryType()
          .defaultValue(8L << 20)
          .description("Size of manifest files written when manifests are merged.");

  public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
      ConfigOption.key("manifest.merge-min-count")
          .intType()
          .defaultValue(30)
          .description(
              "When a snapshot would reference at least this many manifests, the small ones"
                  + " (under half of manifest.target-file-size) are merged into full-size ones, so the"
                  + " count stays bounded as commits accumulate.");
}

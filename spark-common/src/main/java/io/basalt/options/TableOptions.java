package io.basalt.options;

/** Options that define a table: keys, buckets, merge engine and file formats. */
public final class TableOptions {
  private TableOptions() {}

  public static final ConfigOption<String> PRIMARY_KEY =
      ConfigOption.key("primary-key")
          .stringType()
          .description(
              "Comma-separated primary-key columns, given at CREATE TABLE. Stored in the schema"
                  + " rather than as an option; it cannot be changed afterwards.");

  public static final ConfigOption<Integer> BUCKET =
      ConfigOption.key("bucket")
          .intType()
          .defaultValue(-1)
          .description(
              "Number of buckets. N >= 1 hashes rows by the bucket key into N buckets;"
                  + " -1 on an append table means bucket-unaware; on a primary-key table it means"
                  + " dynamic buckets (see docs/dynamic-buckets.md). -2 on a primary-key table means"
                  + " postponed buckets: CALL sys.compact assigns them (see docs/buckets.md)."
                  + " A change applies to partitions written afterwards by INSERT OVERWRITE or"
                  + " CALL sys.rescale.");

  public static final ConfigOption<String> BUCKET_KEY =
      ConfigOption.key("bucket-key")
          .stringType()
          .description(
              "Comma-separated columns hashed to choose a bucket. Defaults to the primary key"
                  + " minus partition columns; must be a subset of it on primary-key tables.");

  public static final ConfigOption<String> MERGE_ENGINE =
      ConfigOption.key("merge-engine")
          .enumType("deduplicate", "partial-update", "aggregation", "first-row")
          .defaultValue("deduplicate")
          .description(
              "How rows with the same primary key merge (primary-key tables). deduplicate keeps"
                  + " the newest version; partial-update fills in non-null columns, per sequence"
                  + " group when 'fields.<seq>.sequence-group' is set; aggregation folds each"
                  + " column with 'fields.<f>.aggregate-function'; first-row keeps the first"
                  + " version. See docs/merge-engines.md.");

  public static final ConfigOption<String> FILE_FORMAT =
      ConfigOption.key("file.format")
          .enumType("parquet", "orc", "avro")
          .defaultValue("parquet")
          .description(
              "Format of the data files written from now on: parquet, orc or avro. Files keep"
                  + " the format they were written in (their extension), so a table can mix"
                  + " formats after an ALTER.");

  public static final ConfigOption<String> FILE_COMPRESSION =
      ConfigOption.key("file.compression")
          .enumType("zstd", "snappy", "gzip", "lz4", "none")
          .defaultValue("zstd")
          .description(
              "Compression codec of data files, for every format (Avro has no lz4; gzip is"
                  + " Avro's deflate and ORC's zlib).");

  public static final ConfigOption<String> PARTITION_DEFAULT_NAME =
      ConfigOption.key("partition.default-name")
          .stringType()
          .defaultValue("__DEFAULT_PARTITION__")
          .description("Directory name of the partition whose value is null or blank.");

  public static final ConfigOption<String> SEQUENCE_FIELD =
      ConfigOption.key("sequence.field")
          .stringType()
          .description(
              "Comma-separated columns that order the versions of a key before the sequence"
                  + " number does, so late-arriving older data never overwrites newer data.");

  public static final ConfigOption<String> SEQUENCE_FIELD_SORT_ORDER =
      ConfigOption.key("sequence.field.sort-order")
          .enumType("ascending", "descending")
          .defaultValue("ascending")
          .description(
              "ascending: the version with the largest sequence.field wins; descending: the"
                  + " smallest wins.");

  public static final ConfigOption<Boolean> DELETION_VECTORS_ENABLED =
      ConfigOption.key("deletion-vectors.enabled")
          .booleanType()
          .defaultValue(false)
          .description(
              "Primary-key tables: writers move new rows out of level 0 at every commit and mark"
                  + " the older versions of their keys in per-file deletion vectors, so reads need"
                  + " no merge. With write-only writers, rows become visible once a compaction job"
                  + " has processed them.");

  public static final ConfigOption<Boolean> DELETION_VECTORS_BITMAP64 =
      ConfigOption.key("deletion-vectors.bitmap64")
          .booleanType()
          .defaultValue(false)
          .description("Store deletion vectors as 64-bit Roaring bitmaps.");
}

package io.basalt.options;

/** Read options that let a query skip data files it cannot read, with Paimon's keys. */
public final class UnreadableFileOptions {
  private UnreadableFileOptions() {}

  public static final ConfigOption<Boolean> SCAN_IGNORE_CORRUPT_FILES =
      ConfigOption.key("scan.ignore-corrupt-files")
          .booleanType()
          .defaultValue(false)
          .description(
              "A query skips a data file that exists but cannot be read (a damaged Parquet"
                  + " footer or page), from the point of failure on, with a warning in the log,"
                  + " instead of failing. Its rows are missing from the result. Compaction never"
                  + " skips files.");

  public static final ConfigOption<Boolean> SCAN_IGNORE_LOST_FILES =
      ConfigOption.key("scan.ignore-lost-files")
          .booleanType()
          .defaultValue(false)
          .description(
              "A query skips a data file that a snapshot lists but that no longer exists, with a"
                  + " warning in the log, instead of failing. Its rows are missing from the"
                  + " result. Compaction never skips files.");
}

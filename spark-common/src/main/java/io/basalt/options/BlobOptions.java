package io.basalt.options;

/** Options of BLOB columns. */
public final class BlobOptions {
  private BlobOptions() {}

  public static final ConfigOption<String> BLOB_FIELD =
      ConfigOption.key("blob-field")
          .stringType()
          .description(
              "Comma-separated BINARY, ARRAY<BINARY> or MAP<K, BINARY> columns that Paimon stores"
                  + " as BLOBs. Needs an append table with 'row-tracking.enabled' and"
                  + " 'data-evolution.enabled'; fixed when the table is created. Their bytes go to .blob"
                  + " files beside the data files.");

  public static final ConfigOption<Long> BLOB_TARGET_FILE_SIZE =
      ConfigOption.key("blob.target-file-size")
          .memoryType()
          .atLeast(1)
          .description(
              "Size at which a writer rolls to a new .blob file of a BLOB column. Defaults to"
                  + " 'target-file-size'.");
}

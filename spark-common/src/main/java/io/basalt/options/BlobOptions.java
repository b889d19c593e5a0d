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
                  + " 'data-evolution.enabled'. Basalt checks the definition but still stores the"
                  + " bytes in the data files (no separate .blob files yet).");
}

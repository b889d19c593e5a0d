package io.basalt.options;

/** Options that shape how writers buffer and roll data files. */
public final class WriteOptions {
  private WriteOptions() {}

  public static final ConfigOption<Long> WRITE_BUFFER_SIZE =
      ConfigOption.key("write-buffer-size")
          .memoryType()
          .atLeast(1)
          .defaultValue(256L << 20)
          .description(
              "Memory a bucket writer buffers (sorted by key) before it flushes a level-0 file.");

  public static final ConfigOption<Long> TARGET_FILE_SIZE =
      ConfigOption.key("target-file-size")
          .memoryType()
          .atLeast(1)
          .defaultValue(128L << 20)
          .description("Size at which a writer rolls to a new data file.");

  public static final ConfigOption<Long> PARQUET_BLOCK_SIZE =
      ConfigOption.key("parquet.block.size")
          .memoryType()
          .atLeast(1)
          .defaultValue(128L << 20)
          .description("Parquet row-group size of data files.");

  public static final ConfigOption<Long> PARQUET_PAGE_SIZE =
      ConfigOption.key("parquet.page.size")
          .memoryType()
          .atLeast(1)
          .defaultValue(1L << 20)
          .description("Parquet page size of data files.");

  public static final ConfigOption<Boolean> WRITE_BUFFER_SPILLABLE =
      ConfigOption.key("write-buffer-spillable")
          .booleanType()
          .defaultValue(true)
          .description(
              "When the write buffer is full, spill its sorted rows to local disk and merge the"
                  + " spills into one level-0 file at commit, instead of writing a small level-0"
                  + " file each time.");

  public static final ConfigOption<Integer> LOCAL_SORT_MAX_NUM_FILE_HANDLES =
      ConfigOption.key("local-sort.max-num-file-handles")
          .intType()
          .atLeast(1)
          .defaultValue(128)
          .description(
              "The most spill files one bucket writer keeps; when reached, the writer writes its"
                  + " rows out as a level-0 file instead.");

  public static final ConfigOption<Long> END_INPUT_WATERMARK =
      ConfigOption.key("end-input.watermark")
          .longType()
          .description(
              "A write option: the watermark (epoch milliseconds) the write's snapshot records."
                  + " A snapshot keeps the larger of this and the previous snapshot's watermark."
                  + " Read back with VERSION AS OF 'watermark-<n>' or 'scan.watermark'.");

  public static final ConfigOption<String> SINK_WATERMARK_TIME_ZONE =
      ConfigOption.key("sink.watermark-time-zone")
          .stringType()
          .defaultValue("UTC")
          .description(
              "The time zone in which watermarks are read as local times, e.g. to name"
                  + " 'watermark' automatic tags.");
}

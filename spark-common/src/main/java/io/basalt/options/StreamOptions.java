package io.basalt.options;

/** Options of streaming reads (Spark Structured Streaming), named as Paimon names them. */
public final class StreamOptions {
  private StreamOptions() {}

  public static final ConfigOption<String> SCAN_MODE =
      ConfigOption.key("scan.mode")
          .enumType(
              "default",
              "latest-full",
              "full",
              "latest",
              "from-snapshot",
              "from-snapshot-full",
              "from-timestamp")
          .defaultValue("default")
          .description(
              "Where a streaming read starts. 'latest-full' (also 'full'): the latest snapshot's"
                  + " rows, then every later change; 'latest': only changes committed after the"
                  + " start; 'from-snapshot' / 'from-snapshot-full': the changes from snapshot"
                  + " 'scan.snapshot-id' on, or that snapshot's rows and then its successors'"
                  + " changes; 'from-timestamp': the changes committed after 'scan.timestamp-millis'"
                  + " or 'scan.timestamp'. 'default' picks from-snapshot, from-timestamp or"
                  + " from-snapshot-full (with 'scan.tag-name') when their option is set, else"
                  + " latest-full.");

  public static final ConfigOption<Boolean> STREAMING_READ_OVERWRITE =
      ConfigOption.key("streaming-read-overwrite")
          .booleanType()
          .defaultValue(false)
          .description(
              "Whether a streaming read emits the rows an INSERT OVERWRITE adds (as inserts);"
                  + " by default OVERWRITE snapshots are skipped.");

  public static final ConfigOption<Boolean> READ_CHANGELOG =
      ConfigOption.key("read.changelog")
          .booleanType()
          .defaultValue(false)
          .description(
              "A streaming read produces the 'rowkind' column in front of the table's columns"
                  + " and keeps -U and -D rows; otherwise only +I and +U rows are produced.");

  public static final ConfigOption<Integer> MAX_FILES_PER_TRIGGER =
      ConfigOption.key("read.stream.maxFilesPerTrigger")
          .intType()
          .description(
              "Admission control of a streaming read: at most about this many data files per"
                  + " micro-batch (a batch takes at least one bucket).");

  public static final ConfigOption<Long> MAX_BYTES_PER_TRIGGER =
      ConfigOption.key("read.stream.maxBytesPerTrigger")
          .longType()
          .description(
              "Admission control of a streaming read: at most about this many bytes of data files"
                  + " per micro-batch (a batch takes at least one bucket).");

  public static final ConfigOption<Long> MAX_ROWS_PER_TRIGGER =
      ConfigOption.key("read.stream.maxRowsPerTrigger")
          .longType()
          .description(
              "Admission control of a streaming read: at most about this many rows (file row"
                  + " counts) per micro-batch (a batch takes at least one bucket).");

  public static final ConfigOption<Long> MIN_ROWS_PER_TRIGGER =
      ConfigOption.key("read.stream.minRowsPerTrigger")
          .longType()
          .description(
              "A streaming read waits for at least this many new rows before it starts a"
                  + " micro-batch, or for 'read.stream.maxTriggerDelayMs'; Trigger.AvailableNow"
                  + " reads the rest however few they are.");

  public static final ConfigOption<Long> MAX_TRIGGER_DELAY_MS =
      ConfigOption.key("read.stream.maxTriggerDelayMs")
          .longType()
          .description(
              "With 'read.stream.minRowsPerTrigger': the longest a streaming read waits for more"
                  + " rows before it starts a micro-batch anyway (milliseconds).");

  public static final ConfigOption<String> CONSUMER_ID =
      ConfigOption.key("consumer-id")
          .stringType()
          .description(
              "A streaming read records its progress in the table's consumer/consumer-<id> file;"
                  + " snapshot expiration keeps every snapshot the consumer has yet to read, and a"
                  + " new query with the same id and no checkpoint resumes there. Letters, digits,"
                  + " '-', '_' and '.'.");

  public static final ConfigOption<Long> CONSUMER_EXPIRATION_TIME =
      ConfigOption.key("consumer.expiration-time")
          .durationType()
          .description(
              "A consumer not updated for this long no longer holds snapshots back from"
                  + " expiration, and expiration deletes its file. Unset: consumers never expire.");
}

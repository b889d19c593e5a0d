package io.basalt.options;

/** Options of scan planning. */
public final class ReadOptions {
  private ReadOptions() {}

  public static final ConfigOption<Long> SPLIT_TARGET_SIZE =
      ConfigOption.key("source.split.target-size")
          .memoryType()
          .defaultValue(128L << 20)
          .description(
              "Target size of one input partition: buckets that need no merge are cut into,"
                  + " and small buckets packed together into, pieces of about this size.");

  public static final ConfigOption<Long> SPLIT_OPEN_FILE_COST =
      ConfigOption.key("source.split.open-file-cost")
          .memoryType()
          .defaultValue(4L << 20)
          .description(
              "The size a file counts as at least when packing input partitions, for the cost"
                  + " of opening it.");
}

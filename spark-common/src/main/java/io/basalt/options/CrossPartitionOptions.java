package io.basalt.options;

/**
 * Options of cross-partition upsert tables: a primary key that leaves out a partition column, with
 * {@code 'bucket' = '-1'}. Paimon needs no switch for them; Basalt accepts the one some guides
 * write.
 */
public final class CrossPartitionOptions {
  private CrossPartitionOptions() {}

  public static final ConfigOption<Boolean> ENABLED =
      ConfigOption.key("cross-partition-upsert.enabled")
          .booleanType()
          .defaultValue(true)
          .description(
              "Not a Paimon option. A primary key without every partition column is always a"
                  + " cross-partition upsert table (with 'bucket' = -1), so 'true' changes"
                  + " nothing; 'false' is refused: add the partition columns to the primary key"
                  + " instead.");
}

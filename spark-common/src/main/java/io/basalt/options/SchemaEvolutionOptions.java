package io.basalt.options;

/** Options that limit what {@code ALTER TABLE} may change in a table's columns, as Paimon's. */
public final class SchemaEvolutionOptions {
  private SchemaEvolutionOptions() {}

  public static final ConfigOption<Boolean> DISABLE_EXPLICIT_TYPE_CASTING =
      ConfigOption.key("disable-explicit-type-casting")
          .booleanType()
          .defaultValue(false)
          .description(
              "If true, ALTER COLUMN ... TYPE allows only changes that keep every value exactly"
                  + " (INT to BIGINT, any number to DOUBLE or STRING); changes that may lose"
                  + " information (BIGINT to INT, DOUBLE to INT, STRING to INT) are refused.");

  public static final ConfigOption<Boolean> DISABLE_ALTER_COLUMN_NULL_TO_NOT_NULL =
      ConfigOption.key("alter-column-null-to-not-null.disabled")
          .booleanType()
          .defaultValue(true)
          .description(
              "If true, ALTER COLUMN ... SET NOT NULL is refused. Set it to false to allow the"
                  + " change; as in Paimon, the rows already stored are not checked, so make sure"
                  + " the column holds no NULL first.");

  public static final ConfigOption<Boolean> ADD_COLUMN_BEFORE_PARTITION =
      ConfigOption.key("add-column-before-partition")
          .booleanType()
          .defaultValue(false)
          .description(
              "If true, a top-level column added without FIRST or AFTER goes before the first"
                  + " partition column instead of at the end (partitioned tables only).");
}

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
}

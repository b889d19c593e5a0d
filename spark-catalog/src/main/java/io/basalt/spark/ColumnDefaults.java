package io.basalt.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;

/**
 * Column DEFAULT values: the catalog declares them so Spark accepts {@code DEFAULT} in CREATE TABLE
 * and ALTER COLUMN, and fills defaults in for INSERTs that leave a column out or name {@code
 * DEFAULT}. The schema keeps a column's default as its SQL text (Paimon's {@code defaultValue} of
 * the field); {@link SparkTable#sparkSchema} hands it back to Spark.
 */
final class ColumnDefaults {
  /** The catalog's capabilities: the constraint ones and column defaults. */
  static final Set<TableCatalogCapability> CAPABILITIES = capabilities();

  private ColumnDefaults() {}

  private static Set<TableCatalogCapability> capabilities() {
    Set<TableCatalogCapability> all =
        EnumSet.of(TableCatalogCapability.SUPPORT_COLUMN_DEFAULT_VALUE);
    all.addAll(TableConstraints.CAPABILITIES);
    return Set.copyOf(all);
  }
}

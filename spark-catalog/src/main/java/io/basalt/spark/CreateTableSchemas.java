package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.options.TableOptionCheck;
import io.basalt.options.TableOptions;
import io.basalt.schema.SchemaFactory;
import io.basalt.schema.SchemaValidation;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * Turns a Spark CREATE TABLE or REPLACE TABLE (schema, PARTITIONED BY, TBLPROPERTIES) into a table
 * schema.
 */
final class CreateTableSchemas {
  /** Properties Spark adds itself; they are not table options. */
  private static final Set<String> SPARK_RESERVED =
      Set.of(
          TableCatalog.PROP_PROVIDER,
          TableCatalog.PROP_LOCATION,
          TableCatalog.PROP_COMMENT,
          TableCatalog.PROP_OWNER,
          TableCatalog.PROP_EXTERNAL,
          TableCatalog.PROP_IS_MANAGED_LOCATION,
          "path");

  /** Flink's option naming the connector of a table that lives outside the catalog. */
  private static final String FLINK_CONNECTOR = "connector";

  private CreateTableSchemas() {}

  /** A Flink connector table (Kafka, JDBC, ...) would silently become a Paimon table here. */
  private static void checkNotFlinkConnector(String table, String connector) {
    if (connector != null && !connector.equalsIgnoreCase("paimon")) {
      throw new BasaltException(
          String.format(
              "Table %s: '%s' = '%s' declares a Flink connector table; the Basalt catalog creates"
                  + " only Paimon tables. Fix: read the source with Spark's own connector (for"
                  + " Kafka, spark.readStream.format(\"kafka\")) and remove '%s' to create a"
                  + " Paimon table.",
              table, FLINK_CONNECTOR, connector, FLINK_CONNECTOR));
    }
  }

  static TableSchema fromSpark(
      String table, StructType schema, Transform[] partitions, Map<String, String> properties) {
    return fromSpark(table, 0, schema, partitions, properties);
  }

  /** The schema with id {@code id} (REPLACE TABLE appends one to the table's schemas). */
  static TableSchema fromSpark(
      String table,
      long id,
      StructType schema,
      Transform[] partitions,
      Map<String, String> properties) {
    List<String> partitionKeys = new ArrayList<>();
    for (Transform transform : partitions) {
      if (!(transform instanceof IdentityTransform identity)) {
        throw new BasaltException(
            String.format(
                "Table %s: partition transform %s is not supported; Basalt partitions by column"
                    + " values. Fix: PARTITIONED BY (col, ...).",
                table, transform.describe()));
      }
      partitionKeys.add(String.join(".", identity.ref().fieldNames()));
    }
    Map<String, String> options = new HashMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      if (!SPARK_RESERVED.contains(e.getKey()) && !e.getKey().startsWith("option.")) {
        options.put(e.getKey(), e.getValue());
      }
    }
    String provider = properties.get(TableCatalog.PROP_PROVIDER);
    if (provider != null && !provider.equalsIgnoreCase("paimon")) {
      throw new BasaltException(
          String.format(
              "Table %s: USING %s is not supported by the Basalt catalog. Fix: USING paimon, or"
                  + " leave USING out; with the DataFrame API, df.write.format(\"paimon\")"
                  + " (saveAsTable otherwise uses spark.sql.sources.default).",
              table, provider));
    }
    checkNotFlinkConnector(table, options.get(FLINK_CONNECTOR));
    TableOptionCheck.check(options, List.of(schema.fieldNames()), table);
    List<String> primaryKeys = new ArrayList<>();
    String pk = options.remove(TableOptions.PRIMARY_KEY.key());
    if (pk != null) {
      for (String key : pk.split(",")) {
        if (!key.isBlank()) {
          primaryKeys.add(key.trim());
        }
      }
    }
    checkColumnsExist(table, schema, primaryKeys, TableOptions.PRIMARY_KEY.key());
    TableSchema result =
        SchemaFactory.create(
            id,
            schema,
            partitionKeys,
            primaryKeys,
            options,
            properties.get(TableCatalog.PROP_COMMENT));
    SchemaValidation.validate(result, table);
    return result;
  }

  private static void checkColumnsExist(
      String table, StructType schema, List<String> columns, String option) {
    List<String> names = List.of(schema.fieldNames());
    for (String column : columns) {
      if (!names.contains(column)) {
        throw new BasaltException(
            String.format(
                "Primary-key column '%s' (option '%s') does not exist in table %s; its columns are"
                    + " %s. Fix: name existing columns in '%s'.",
                column, option, table, String.join(", ", names), option));
      }
    }
  }
}

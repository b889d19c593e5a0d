package io.basalt.spark;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import io.basalt.options.TableOptions;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.constraints.Check;
import org.apache.spark.sql.connector.catalog.constraints.Constraint;
import org.apache.spark.sql.connector.catalog.constraints.ForeignKey;
import org.apache.spark.sql.connector.catalog.constraints.PrimaryKey;
import org.apache.spark.sql.connector.catalog.constraints.Unique;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;

/**
 * Spark 4.1 table constraints on Basalt tables. A {@code PRIMARY KEY} constraint (column or table
 * form, {@code NOT ENFORCED}, {@code RELY}/{@code NORELY}) is the table's primary key, the same as
 * the {@code primary-key} table property Paimon's Spark docs use; it is reported back from {@code
 * Table.constraints()} so DESCRIBE and SHOW CREATE TABLE show it. Paimon keeps no other constraint,
 * and neither does Basalt: CHECK, UNIQUE and FOREIGN KEY are refused rather than silently dropped.
 *
 * <p>The key is stored as Paimon stores it (the schema's primary keys), so the constraint's name
 * and its RELY flag are not kept: the key is reported as {@code <table>_pk}, NOT ENFORCED and
 * NORELY.
 */
final class TableConstraints {
  /** What the catalog declares so that Spark passes constraints to CREATE and REPLACE TABLE. */
  static final Set<TableCatalogCapability> CAPABILITIES =
      EnumSet.of(TableCatalogCapability.SUPPORT_TABLE_CONSTRAINT);

  private TableConstraints() {}

  /**
   * The table properties of {@code info} with its PRIMARY KEY constraint as the {@code primary-key}
   * property; fails for a constraint Basalt cannot keep or a key that contradicts the property.
   */
  static Map<String, String> properties(String table, TableInfo info) {
    Constraint[] constraints = info.constraints();
    if (constraints == null || constraints.length == 0) {
      return info.properties();
    }
    PrimaryKey primaryKey = null;
    for (Constraint constraint : constraints) {
      if (!(constraint instanceof PrimaryKey pk)) {
        throw unsupported(table, constraint);
      }
      if (primaryKey != null) {
        throw new BasaltException(
            BasaltErrorClass.BASALT_INVALID_INPUT,
            Map.of(
                "input", "PRIMARY KEY constraint", "value", pk.toDDL(), "owner", "table " + table),
            String.format(
                "Table %s declares two primary keys (%s and %s). Fix: declare one PRIMARY KEY"
                    + " (col, ...) NOT ENFORCED listing all key columns.",
                table, primaryKey.toDDL(), pk.toDDL()));
      }
      primaryKey = pk;
    }
    String keys = keyColumns(table, primaryKey);
    String key = TableOptions.PRIMARY_KEY.key();
    String property = info.properties().get(key);
    if (property != null && !sameColumns(property, keys)) {
      throw new BasaltException(
          BasaltErrorClass.BASALT_INVALID_OPTION,
          Map.of("option", key, "value", property, "owner", "table " + table),
          String.format(
              "Table %s: the PRIMARY KEY constraint names (%s) but the table property '%s' is"
                  + " '%s'. Fix: declare the key once, either as PRIMARY KEY (...) NOT ENFORCED or"
                  + " as TBLPROPERTIES ('%s' = '...').",
              table, keys, key, property, key));
    }
    Map<String, String> properties = new HashMap<>(info.properties());
    properties.put(key, keys);
    return properties;
  }

  /** The constraints Spark shows for a table: its primary key, if it has one. */
  static Constraint[] of(String table, TableSchema schema) {
    if (schema.primaryKeys().isEmpty()) {
      return new Constraint[0];
    }
    NamedReference[] columns =
        schema.primaryKeys().stream().map(Expressions::column).toArray(NamedReference[]::new);
    String simpleName = table.substring(table.lastIndexOf('.') + 1);
    return new Constraint[] {
      Constraint.primaryKey(simpleName + "_pk", columns)
          .enforced(false)
          .rely(false)
          .validationStatus(Constraint.ValidationStatus.UNVALIDATED)
          .build()
    };
  }

  /** Whether {@code change} is an ADD or DROP CONSTRAINT, which {@link #alter} answers. */
  static boolean isConstraintChange(TableChange change) {
    return change instanceof TableChange.AddConstraint
        || change instanceof TableChange.DropConstraint;
  }

  /**
   * ALTER TABLE ADD/DROP CONSTRAINT: the primary key is fixed when the table is created (as in
   * Paimon) and no other constraint is kept, so only {@code DROP CONSTRAINT IF EXISTS} of a name
   * the table does not have succeeds (it changes nothing); everything else fails with the way to do
   * it.
   */
  static void alter(String table, TableSchema schema, TableChange change) {
    if (change instanceof TableChange.DropConstraint drop) {
      boolean exists =
          Arrays.stream(of(table, schema)).anyMatch(c -> c.name().equalsIgnoreCase(drop.name()));
      if (!exists && drop.ifExists()) {
        return;
      }
      throw new BasaltException(
          BasaltErrorClass.BASALT_UNSUPPORTED_FEATURE,
          Map.of("feature", "DROP CONSTRAINT " + drop.name(), "table", table),
          String.format(
              "ALTER TABLE %s DROP CONSTRAINT %s is not supported: %s. Fix: create a new table"
                  + " without the key and copy the rows (CREATE TABLE ... AS SELECT * FROM %s).",
              table,
              drop.name(),
              exists ? "a table's primary key is fixed" : "no such constraint",
              table));
    }
    Constraint constraint = ((TableChange.AddConstraint) change).constraint();
    throw new BasaltException(
        BasaltErrorClass.BASALT_UNSUPPORTED_FEATURE,
        Map.of("feature", "ADD CONSTRAINT", "table", table),
        String.format(
            "ALTER TABLE %s ADD CONSTRAINT %s is not supported: a Basalt table's primary key is"
                + " fixed when it is created (as in Paimon), and CHECK, UNIQUE and FOREIGN KEY"
                + " constraints are not kept. Fix: create a new table with PRIMARY KEY (...) NOT"
                + " ENFORCED and copy the rows into it (INSERT INTO new SELECT * FROM %s).",
            table, constraint.toDDL(), table));
  }

  private static String keyColumns(String table, PrimaryKey pk) {
    List<String> names = new ArrayList<>();
    for (NamedReference column : pk.columns()) {
      if (column.fieldNames().length != 1) {
        throw new BasaltException(
            BasaltErrorClass.BASALT_INVALID_INPUT,
            Map.of(
                "input",
                "PRIMARY KEY column",
                "value",
                column.describe(),
                "owner",
                "table " + table),
            String.format(
                "Table %s: primary-key column %s is a nested field. Fix: use top-level columns in"
                    + " PRIMARY KEY (...).",
                table, column.describe()));
      }
      names.add(column.fieldNames()[0]);
    }
    return String.join(",", names);
  }

  private static boolean sameColumns(String property, String keys) {
    List<String> declared = new ArrayList<>();
    for (String key : property.split(",")) {
      if (!key.isBlank()) {
        declared.add(key.trim());
      }
    }
    return String.join(",", declared).equals(keys);
  }

  private static BasaltException unsupported(String table, Constraint constraint) {
    String kind =
        constraint instanceof Check
            ? "CHECK"
            : constraint instanceof Unique
                ? "UNIQUE"
                : constraint instanceof ForeignKey ? "FOREIGN KEY" : "this";
    String fix =
        constraint instanceof Unique
            ? "if these columns identify a row, make them the key: PRIMARY KEY (...) NOT ENFORCED;"
                + " otherwise remove the constraint"
            : "remove the constraint and check the rows in the query that writes them";
    return new BasaltException(
        BasaltErrorClass.BASALT_UNSUPPORTED_FEATURE,
        Map.of("feature", kind + " constraint", "table", table),
        String.format(
            "Table %s: %s constraint %s is not supported; Basalt tables (like Paimon's) keep only"
                + " a primary key. Fix: %s.",
            table, kind, constraint.toDDL(), fix));
  }
}

package io.basalt.spark.extensions.functions;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import io.basalt.options.ReadOptions;
import io.basalt.spark.SparkCatalog;
import io.basalt.spark.SparkTable;
import io.basalt.spark.extensions.ScalaInterop;
import io.basalt.spark.systables.AuditLogTable;
import io.basalt.spark.systables.BinlogTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;

/**
 * Paimon's incremental table-valued functions, each a Basalt table read with one incremental read
 * option ({@link ReadOptions#INCREMENTAL_OPTIONS}):
 *
 * <ul>
 *   <li>{@code paimon_incremental_query('t', start, end)}: {@code incremental-between};
 *   <li>{@code paimon_incremental_between_timestamp('t', t1, t2)}: {@code
 *       incremental-between-timestamp};
 *   <li>{@code paimon_incremental_to_auto_tag('t', 'tag')}: {@code incremental-to-auto-tag}.
 * </ul>
 *
 * The table may be {@code t}, {@code db.t}, {@code catalog.db.t}, a branch {@code t$branch_b}, or
 * {@code t$audit_log} / {@code t$binlog} (then the rows carry their kinds). Arguments must be
 * constants.
 */
public final class IncrementalTableFunctions {
  private IncrementalTableFunctions() {}

  /** One function: its name, the option it sets and its bound arguments after the table. */
  private record Definition(String name, String option, List<String> bounds, String usage) {}

  private static final List<Definition> FUNCTIONS =
      List.of(
          new Definition(
              "paimon_incremental_query",
              ReadOptions.INCREMENTAL_BETWEEN.key(),
              List.of("start", "end"),
              "paimon_incremental_query('db.t', 5, 10) or paimon_incremental_query('db.t', 'TAG1',"
                  + " 'TAG3')"),
          new Definition(
              "paimon_incremental_between_timestamp",
              ReadOptions.INCREMENTAL_BETWEEN_TIMESTAMP.key(),
              List.of("start time", "end time"),
              "paimon_incremental_between_timestamp('db.t', '1692169000000', '1692169900000') or"
                  + " paimon_incremental_between_timestamp('db.t', '2025-03-12 00:00:00',"
                  + " '2025-03-12 00:08:00')"),
          new Definition(
              "paimon_incremental_to_auto_tag",
              ReadOptions.INCREMENTAL_TO_AUTO_TAG.key(),
              List.of("tag"),
              "paimon_incremental_to_auto_tag('db.t', '2024-12-04')"));

  /** Registers every function with the session extensions. */
  public static void register(SparkSessionExtensions extensions) {
    for (Definition definition : FUNCTIONS) {
      Function1<Seq<Expression>, LogicalPlan> builder =
          ScalaInterop.function(arguments -> build(definition, ScalaInterop.toJava(arguments)));
      extensions.injectTableFunction(
          new Tuple3<>(
              FunctionIdentifier.apply(definition.name()),
              new ExpressionInfo(
                  IncrementalTableFunctions.class.getName(),
                  null,
                  definition.name(),
                  "Reads the changes of a Basalt table: " + definition.usage(),
                  ""),
              builder));
    }
  }

  private static LogicalPlan build(Definition definition, List<Expression> arguments) {
    if (arguments.size() != 1 + definition.bounds().size()) {
      throw invalid(
          definition,
          "argument count",
          String.valueOf(arguments.size()),
          String.format(
              "%s takes %s arguments (the table, then %s), but got %s. Fix: call it as %s.",
              definition.name(),
              1 + definition.bounds().size(),
              String.join(", ", definition.bounds()),
              arguments.size(),
              definition.usage()));
    }
    String tableName = constant(definition, arguments.get(0), "table name", false);
    List<String> bounds = new ArrayList<>();
    for (int i = 0; i < definition.bounds().size(); i++) {
      bounds.add(constant(definition, arguments.get(i + 1), definition.bounds().get(i), true));
    }
    SparkSession session = SparkSession.active();
    List<String> parts;
    try {
      parts =
          ScalaInterop.toJava(
              session.sessionState().sqlParser().parseMultipartIdentifier(tableName));
    } catch (org.apache.spark.sql.catalyst.parser.ParseException e) {
      throw invalid(
          definition,
          "argument 'table'",
          tableName,
          String.format(
              "The table name '%s' given to %s is not a valid name. Fix: write t, db.t or"
                  + " catalog.db.t, quoting parts with backticks where needed.",
              tableName, definition.name()),
          e);
    }
    checkBasaltTable(definition, session, tableName, parts);
    Map<String, String> options = Map.of(definition.option(), String.join(",", bounds));
    return new UnresolvedRelation(
        ScalaInterop.toScala(parts), new CaseInsensitiveStringMap(options), false);
  }

  /**
   * An invalid argument of a table function, as {@code BASALT_INVALID_INPUT}: {@code input} names
   * the argument, {@code value} its SQL, {@code owner} the function.
   */
  private static BasaltException invalid(
      Definition definition, String input, String value, String message) {
    return invalid(definition, input, value, message, null);
  }

  private static BasaltException invalid(
      Definition definition, String input, String value, String message, Throwable cause) {
    return new BasaltException(
        BasaltErrorClass.BASALT_INVALID_INPUT,
        Map.of("input", input, "value", value, "owner", "function " + definition.name()),
        message,
        cause);
  }

  /** A constant argument as text: a string, or (when {@code numbers}) an integer. */
  private static String constant(
      Definition definition, Expression argument, String what, boolean numbers) {
    boolean integer =
        argument.dataType().equals(DataTypes.IntegerType)
            || argument.dataType().equals(DataTypes.LongType);
    boolean string = argument.dataType().equals(DataTypes.StringType);
    Object value = argument.foldable() ? argument.eval(null) : null;
    if (value == null || !(string || (numbers && integer))) {
      throw invalid(
          definition,
          "argument '" + what + "'",
          argument.sql(),
          String.format(
              "The %s argument of %s must be a constant %s, but got %s (%s). Fix: call it as %s.",
              what,
              definition.name(),
              numbers ? "string or integer" : "string",
              argument.sql(),
              argument.dataType().simpleString(),
              definition.usage()));
    }
    return value instanceof UTF8String text ? text.toString() : value.toString();
  }

  /**
   * Fails unless {@code parts} name a Basalt table or its {@code $audit_log}: the option would be
   * ignored anywhere else, silently returning the whole table.
   */
  private static void checkBasaltTable(
      Definition definition, SparkSession session, String tableName, List<String> parts) {
    CatalogManager catalogs = session.sessionState().catalogManager();
    CatalogPlugin catalog;
    List<String> rest;
    if (parts.size() > 1 && catalogs.isCatalogRegistered(parts.get(0))) {
      catalog = catalogs.catalog(parts.get(0));
      rest = parts.subList(1, parts.size());
    } else {
      catalog = catalogs.currentCatalog();
      rest = parts;
    }
    if (!(catalog instanceof SparkCatalog basalt)) {
      throw invalid(
          definition,
          "argument 'table'",
          tableName,
          String.format(
              "%s reads Basalt tables only, but '%s' is in catalog '%s' (%s). Fix: name a table"
                  + " of a Basalt catalog, e.g. 'paimon.db.t'.",
              definition.name(), tableName, catalog.name(), catalog.getClass().getName()));
    }
    String[] namespace =
        rest.size() == 1
            ? catalogs.currentNamespace()
            : rest.subList(0, rest.size() - 1).toArray(new String[0]);
    Identifier ident = Identifier.of(namespace, rest.get(rest.size() - 1));
    Table table;
    try {
      table = basalt.loadTable(ident);
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw invalid(
          definition,
          "argument 'table'",
          tableName,
          String.format(
              "%s: table '%s' (%s in catalog %s) does not exist. Fix: name an existing" + " table.",
              definition.name(),
              tableName,
              String.join(".", Arrays.asList(namespace)) + "." + ident.name(),
              catalog.name()),
          e);
    }
    if (!(table instanceof SparkTable)
        && !(table instanceof AuditLogTable)
        && !(table instanceof BinlogTable)) {
      throw invalid(
          definition,
          "argument 'table'",
          tableName,
          String.format(
              "%s cannot read '%s': it is a system table without changes. Fix: name the table"
                  + " itself, a branch (t$branch_b), t$audit_log or t$binlog.",
              definition.name(), tableName));
    }
  }
}

package io.basalt.spark.extensions.rules;

import io.basalt.spark.SparkTable;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.If;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.KnownNotNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.RaiseError;
import org.apache.spark.sql.catalyst.expressions.objects.AssertNotNull;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.DataTypes;
import scala.runtime.AbstractPartialFunction;

/**
 * Gives a NULL written to a primary-key column its own message. Spark guards every non-nullable
 * column of a write with {@code AssertNotNull}, whose message speaks of Scala tuples and Java
 * beans; for the key columns of a Basalt table this rule swaps the guard for one that fails with
 * "column order_id is part of the primary key and cannot be NULL".
 */
public final class NullKeyCheck extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof V2WriteCommand write)
        || !(write.table() instanceof DataSourceV2Relation relation)
        || !(relation.table() instanceof SparkTable table)
        || !table.fileStoreTable().hasPrimaryKey()) {
      return plan;
    }
    List<String> keys = table.fileStoreTable().schema().primaryKeys();
    LogicalPlan query = write.query().resolveExpressions(new KeyGuards(table.name(), keys));
    return query == write.query() ? plan : (LogicalPlan) write.withNewQuery(query);
  }

  /** Replaces the {@code AssertNotNull} of a key column. */
  private static final class KeyGuards extends AbstractPartialFunction<Expression, Expression> {
    private final String table;
    private final List<String> keys;

    KeyGuards(String table, List<String> keys) {
      this.table = table;
      this.keys = keys;
    }

    @Override
    public boolean isDefinedAt(Expression expression) {
      return expression instanceof AssertNotNull check && keyOf(check) != null;
    }

    @Override
    public Expression apply(Expression expression) {
      AssertNotNull check = (AssertNotNull) expression;
      Expression value = check.child();
      String message =
          String.format(
              "Cannot write to table %s: column %s is part of the primary key and cannot be NULL."
                  + " Fix: filter out or replace the rows whose %s is NULL (WHERE %s IS NOT NULL,"
                  + " or COALESCE).",
              table, keyOf(check), keyOf(check), keyOf(check));
      RaiseError raise = new RaiseError(Literal.create(message, DataTypes.StringType));
      Expression typed = raise.copy(raise.errorClass(), raise.errorParms(), value.dataType());
      // the guard either fails or passes a non-null value, as AssertNotNull does
      return new KnownNotNull(new If(new IsNull(value), typed, value));
    }

    /** The key column {@code check} guards, or null when it guards another value. */
    private String keyOf(AssertNotNull check) {
      scala.collection.immutable.Seq<String> path = check.walkedTypePath();
      if (path.size() != 1) {
        return null;
      }
      String column = path.head();
      for (String key : keys) {
        if (key.toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))) {
          return key;
        }
      }
      return null;
    }
  }
}

package io.basalt.spark.extensions.rules;

import io.basalt.BasaltException;
import io.basalt.options.RowTrackingOptions;
import io.basalt.rowtracking.RowTracking;
import io.basalt.spark.SparkTable;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.Iterator;

/**
 * Fails, at analysis, a query that refers to {@code _ROW_ID} or {@code _SEQUENCE_NUMBER} of a
 * Basalt table without row tracking, naming the option. Spark would report an unresolved column
 * before any check rule runs, so this is a resolution rule: it fires only once a node's children
 * are resolved, none of them has a column or metadata column of that name, and the Basalt tables
 * below the node all lack row tracking, so the reference can never resolve.
 */
public final class RowTrackingColumnCheck extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    check(plan);
    return plan;
  }

  private static void check(LogicalPlan node) {
    Iterator<LogicalPlan> children = node.children().iterator();
    while (children.hasNext()) {
      check(children.next());
    }
    if (!node.childrenResolved() || node.children().isEmpty()) {
      return;
    }
    Iterator<Expression> expressions = node.expressions().iterator();
    while (expressions.hasNext()) {
      String column = trackingReference(expressions.next());
      if (column != null && !offeredBelow(node, column)) {
        SparkTable table = untrackedTable(node);
        if (table != null) {
          throw new BasaltException(message(table.name(), column));
        }
      }
    }
  }

  /** The error for a reference to {@code column} of {@code table}, which does not track rows. */
  public static String message(String table, String column) {
    String key = RowTrackingOptions.ROW_TRACKING_ENABLED.key();
    return String.format(
        "Cannot read column %s of table %s: %s and %s exist only on tables with row tracking"
            + " ('%s' = 'true'), which is set when a table is created. Fix: create a table with"
            + " TBLPROPERTIES ('%s' = 'true') and copy the rows into it"
            + " (CREATE TABLE ... TBLPROPERTIES (...) AS SELECT * FROM %s).",
        column, table, RowTracking.ROW_ID, RowTracking.SEQUENCE_NUMBER, key, key, table);
  }

  /** The tracking column {@code expression} refers to unresolved, or null. */
  @Nullable
  private static String trackingReference(Expression expression) {
    if (expression instanceof UnresolvedAttribute attribute) {
      String name = attribute.nameParts().last();
      if (RowTracking.ROW_ID.equalsIgnoreCase(name)
          || RowTracking.SEQUENCE_NUMBER.equalsIgnoreCase(name)) {
        return name;
      }
      return null;
    }
    Iterator<Expression> children = expression.children().iterator();
    while (children.hasNext()) {
      String found = trackingReference(children.next());
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** Whether a child of {@code node} offers {@code column} as a column or metadata column. */
  private static boolean offeredBelow(LogicalPlan node, String column) {
    Iterator<LogicalPlan> children = node.children().iterator();
    while (children.hasNext()) {
      LogicalPlan child = children.next();
      if (has(child.output().iterator(), column)
          || has(child.metadataOutput().iterator(), column)) {
        return true;
      }
    }
    return false;
  }

  private static boolean has(Iterator<Attribute> attributes, String column) {
    while (attributes.hasNext()) {
      if (attributes.next().name().equalsIgnoreCase(column)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A Basalt table read below {@code node} when every Basalt table there lacks row tracking, else
   * null.
   */
  @Nullable
  private static SparkTable untrackedTable(LogicalPlan node) {
    List<SparkTable> tables = new ArrayList<>();
    collect(node, tables);
    for (SparkTable table : tables) {
      if (RowTracking.enabled(table.fileStoreTable().options())) {
        return null;
      }
    }
    return tables.isEmpty() ? null : tables.get(0);
  }

  private static void collect(LogicalPlan plan, List<SparkTable> tables) {
    if (plan instanceof DataSourceV2Relation relation
        && relation.table() instanceof SparkTable table) {
      tables.add(table);
    }
    Iterator<LogicalPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collect(children.next(), tables);
    }
  }
}

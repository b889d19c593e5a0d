package io.basalt.spark.extensions.rules;

import io.basalt.BasaltException;
import io.basalt.spark.write.KeyColumnUpdates;
import io.basalt.spark.write.SparkDeltaOperation;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.WriteDelta;
import org.apache.spark.sql.catalyst.util.RowDeltaUtils;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Fails, at analysis, an UPDATE or MERGE INTO that assigns a primary-key (or partition) column of a
 * primary-key table. Spark rewrites these statements inside its Resolution batch, before any
 * extension rule sees them; a rewritten delta plan that changes a row-id column carries the
 * column's original value in an extra column named with Spark's original-row-id prefix, which is
 * what this check looks for.
 */
public final class KeyColumnUpdateCheck extends AbstractFunction1<LogicalPlan, BoxedUnit> {

  @Override
  public BoxedUnit apply(LogicalPlan plan) {
    check(plan);
    return BoxedUnit.UNIT;
  }

  private static void check(LogicalPlan plan) {
    if (plan instanceof WriteDelta write
        && write.operation() instanceof SparkDeltaOperation operation) {
      checkDelta(write, operation);
    }
    Iterator<LogicalPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      check(children.next());
    }
  }

  private static void checkDelta(WriteDelta write, SparkDeltaOperation operation) {
    checkPartitionsKept(write, operation);
    if (write.query() instanceof MergeRows merge && !merge.notMatchedInstructions().isEmpty()) {
      checkInsertedKeys(write, merge, operation);
    }
    String prefix = RowDeltaUtils.ORIGINAL_ROW_ID_VALUE_PREFIX();
    Iterator<Attribute> output = write.query().output().iterator();
    while (output.hasNext()) {
      String name = output.next().name();
      if (!name.startsWith(prefix)) {
        continue;
      }
      String column = name.substring(prefix.length());
      if (write.query() instanceof MergeRows merge && updatesKeepKey(merge, column, name)) {
        continue;
      }
      throw new BasaltException(
          KeyColumnUpdates.message(
              statement(operation.command()), write.originalTable().name(), column));
    }
  }

  /**
   * On a cross-partition upsert table the row id is the key alone, so an assignment to a partition
   * column is not a row-id change Spark marks; it would leave the row in its old partition too.
   */
  private static void checkPartitionsKept(WriteDelta write, SparkDeltaOperation operation) {
    Iterator<Attribute> target = ((LogicalPlan) write.originalTable()).output().iterator();
    while (target.hasNext()) {
      Attribute column = target.next();
      if (!operation.movesPartition(column.name())) {
        continue;
      }
      boolean kept =
          write.query() instanceof MergeRows merge
              ? updatesKeep(merge, column)
              : projectionKeeps(write.query(), column);
      if (!kept) {
        throw new BasaltException(
            KeyColumnUpdates.message(
                statement(operation.command()), write.originalTable().name(), column.name(), true));
      }
    }
  }

  /** Whether every UPDATE clause of a MERGE leaves {@code column} as it is (or as ON equates). */
  private static boolean updatesKeep(MergeRows merge, Attribute column) {
    int index = indexOf(merge, column.name());
    Expression condition = joinCondition(merge.child());
    java.util.List<MergeRows.Instruction> instructions = new java.util.ArrayList<>();
    merge.matchedInstructions().foreach(instructions::add);
    merge.notMatchedBySourceInstructions().foreach(instructions::add);
    for (MergeRows.Instruction instruction : instructions) {
      if (instruction instanceof MergeRows.Keep keep
          && keep.context() instanceof MergeRows.Update$) {
        Expression value = keep.output().apply(index);
        if (!value.semanticEquals(column) && !equated(condition, column, value)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether the first projection that outputs {@code column}'s name outputs the column itself. */
  private static boolean projectionKeeps(LogicalPlan plan, Attribute column) {
    if (plan instanceof Project project) {
      Iterator<NamedExpression> outputs = project.projectList().iterator();
      while (outputs.hasNext()) {
        NamedExpression output = outputs.next();
        if (output.name().equals(column.name())) {
          Expression value = output instanceof Alias alias ? alias.child() : (Expression) output;
          return value.semanticEquals(column);
        }
      }
    }
    return plan.children().size() != 1 || projectionKeeps(plan.children().head(), column);
  }

  /**
   * On a cross-partition upsert table, a MERGE INTO whose ON condition reads a target column
   * outside the primary key (the partition, say) can call a row "not matched" although its key
   * lives in another partition; inserting it would duplicate the key, so it fails.
   */
  private static void checkInsertedKeys(
      WriteDelta write, MergeRows merge, SparkDeltaOperation operation) {
    Expression condition = joinCondition(merge.child());
    if (condition == null) {
      return;
    }
    Iterator<Attribute> target = ((LogicalPlan) write.originalTable()).output().iterator();
    while (target.hasNext()) {
      Attribute column = target.next();
      if (condition.references().contains(column) && operation.insertNeedsKeyOnly(column.name())) {
        throw new BasaltException(
            String.format(
                "MERGE INTO cross-partition upsert table %s with a WHEN NOT MATCHED insert must"
                    + " match rows by primary key (%s) only, but its ON condition reads column"
                    + " '%s': a row it does not match may have its key in another partition."
                    + " Fix: match on the primary key alone, or INSERT INTO the table, which"
                    + " upserts keys across partitions.",
                write.originalTable().name(),
                String.join(", ", operation.primaryKeys()),
                column.name()));
      }
    }
  }

  /**
   * Whether every UPDATE clause of a MERGE assigns key {@code column} a value the ON condition
   * equates with it ({@code ON t.id = s.id ... UPDATE SET *}): the key does not change then.
   */
  private static boolean updatesKeepKey(MergeRows merge, String column, String originalName) {
    int valueIndex = indexOf(merge, column);
    int originalIndex = indexOf(merge, originalName);
    Expression condition = joinCondition(merge.child());
    java.util.List<MergeRows.Instruction> instructions = new java.util.ArrayList<>();
    merge.matchedInstructions().foreach(instructions::add);
    merge.notMatchedBySourceInstructions().foreach(instructions::add);
    for (MergeRows.Instruction instruction : instructions) {
      if (!(instruction instanceof MergeRows.Keep keep)
          || !(keep.context() instanceof MergeRows.Update$)) {
        continue;
      }
      Expression value = keep.output().apply(valueIndex);
      Expression original = keep.output().apply(originalIndex);
      Expression key = original instanceof Alias alias ? alias.child() : original;
      if (!value.semanticEquals(key) && !equated(condition, key, value)) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(MergeRows merge, String name) {
    int index = 0;
    Iterator<Attribute> output = merge.output().iterator();
    while (output.hasNext()) {
      if (output.next().name().equals(name)) {
        return index;
      }
      index++;
    }
    throw new IllegalStateException("MERGE plan has no column " + name);
  }

  /** The condition of the MERGE's join (null when it has none). */
  private static Expression joinCondition(LogicalPlan plan) {
    if (plan instanceof Join join) {
      return join.condition().isDefined() ? join.condition().get() : null;
    }
    return plan.children().size() == 1 ? joinCondition(plan.children().head()) : null;
  }

  /** Whether conjunct {@code a = b} (or {@code a <=> b}, either way round) is in {@code cond}. */
  private static boolean equated(Expression condition, Expression a, Expression b) {
    if (condition instanceof And and) {
      return equated(and.left(), a, b) || equated(and.right(), a, b);
    }
    if (condition instanceof EqualTo || condition instanceof EqualNullSafe) {
      Expression left = condition.children().apply(0);
      Expression right = condition.children().apply(1);
      return (left.semanticEquals(a) && right.semanticEquals(b))
          || (left.semanticEquals(b) && right.semanticEquals(a));
    }
    return false;
  }

  private static String statement(RowLevelOperation.Command command) {
    return command == RowLevelOperation.Command.UPDATE ? "UPDATE" : "MERGE INTO";
  }
}

package io.basalt.spark.extensions.rules;

import io.basalt.BasaltException;
import io.basalt.spark.SparkCatalog;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTable;
import org.apache.spark.sql.catalyst.plans.logical.TableSpec;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Fails, at analysis, a {@code REPLACE TABLE} or {@code CREATE OR REPLACE TABLE} with table
 * constraints on a Basalt catalog. Spark 4.1 builds the new definition of an atomic replace without
 * the statement's constraints, so the table would silently lose the PRIMARY KEY it was given.
 */
public final class ReplaceTableConstraintCheck extends AbstractFunction1<LogicalPlan, BoxedUnit> {

  @Override
  public BoxedUnit apply(LogicalPlan plan) {
    if (plan instanceof ReplaceTable replace
        && replace.tableSpec() instanceof TableSpec spec
        && spec.constraints().nonEmpty()
        && replace.name() instanceof ResolvedIdentifier resolved
        && resolved.catalog() instanceof SparkCatalog) {
      String table = resolved.catalog().name() + "." + resolved.identifier();
      throw new BasaltException(
          String.format(
              "REPLACE TABLE %s with %s: Spark 4.1 does not pass table constraints to REPLACE"
                  + " TABLE, so the table would lose its key. Fix: declare the key as TBLPROPERTIES"
                  + " ('primary-key' = 'col, ...'), or DROP TABLE and CREATE TABLE with the"
                  + " constraint.",
              table, spec.constraints().head().toDDL()));
    }
    return BoxedUnit.UNIT;
  }
}

package io.basalt.spark.extensions;

import io.basalt.spark.extensions.functions.IncrementalTableFunctions;
import io.basalt.spark.extensions.rules.KeyColumnUpdateCheck;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.Function1;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The session extensions users install with {@code
 * spark.sql.extensions=io.basalt.spark.extensions.BasaltSparkSessionExtensions}. Spark 4.1 routes
 * everything Basalt needs so far (catalog, {@code CALL}, time travel, row-level operations)
 * natively; this adds the analysis check that rejects UPDATE and MERGE INTO assignments to key
 * columns ({@link KeyColumnUpdateCheck}) and the incremental table-valued functions ({@link
 * IncrementalTableFunctions}). Optimizer rules are injected here as they arrive.
 */
public class BasaltSparkSessionExtensions
    extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectCheckRule(
        new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
          @Override
          public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
            return new KeyColumnUpdateCheck();
          }
        });
    IncrementalTableFunctions.register(extensions);
    return BoxedUnit.UNIT;
  }
}

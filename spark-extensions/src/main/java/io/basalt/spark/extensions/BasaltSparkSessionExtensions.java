package io.basalt.spark.extensions;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The session extensions users install with {@code
 * spark.sql.extensions=io.basalt.spark.extensions.BasaltSparkSessionExtensions}. Spark 4.1 routes
 * everything Basalt needs so far (catalog, {@code CALL}, time travel) natively; table-valued
 * functions and optimizer rules are injected here as they arrive.
 */
public class BasaltSparkSessionExtensions
    extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    return BoxedUnit.UNIT;
  }
}

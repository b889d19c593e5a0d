package io.basalt.spark.procedures;

import io.basalt.operation.history.FastForward;
import io.basalt.spark.SparkCatalog;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.fast_forward(table => 'db.t', branch => 'b')}: makes branch b's snapshots,
 * schemas and tags the main branch's, replacing main's history from the branch's first snapshot on.
 */
final class FastForwardProcedure extends BaseProcedure {
  static final String NAME = "fast_forward";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("branch", DataTypes.StringType).build()
  };

  FastForwardProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Replaces the main branch's history with a branch's", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    new FastForward(loadTable(input.getUTF8String(0).toString()))
        .to(input.getUTF8String(1).toString());
    return result(true);
  }
}

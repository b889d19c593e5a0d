package io.basalt.spark.procedures;

import io.basalt.operation.history.Rollback;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.rollback_to_timestamp(table => 'db.t', timestamp => <epoch millis>)}: rolls back
 * to the latest snapshot committed at or before the time, as {@code sys.rollback} does.
 */
final class RollbackToTimestampProcedure extends BaseProcedure {
  static final String NAME = "rollback_to_timestamp";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("timestamp", DataTypes.LongType).build()
  };

  RollbackToTimestampProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Rolls a table back to the latest snapshot committed at or before a time (epoch millis)",
        PARAMETERS,
        ROLLBACK_RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    Optional<Snapshot> previous = table.latestSnapshot();
    return rolledBack(previous, new Rollback(table).toTimestamp(input.getLong(1)));
  }
}

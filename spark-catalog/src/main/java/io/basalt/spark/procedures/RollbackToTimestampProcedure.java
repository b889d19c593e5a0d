package io.basalt.spark.procedures;

import io.basalt.operation.history.Rollback;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

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

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {DataTypes.createStructField("result", DataTypes.StringType, false)});

  RollbackToTimestampProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Rolls a table back to the latest snapshot committed at or before a time (epoch millis)",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    Snapshot target =
        new Rollback(loadTable(input.getUTF8String(0).toString())).toTimestamp(input.getLong(1));
    return result(UTF8String.fromString("Rolled back to snapshot " + target.id()));
  }
}

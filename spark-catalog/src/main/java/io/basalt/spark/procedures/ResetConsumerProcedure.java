package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.consumer.ConsumerManager;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.reset_consumer(table => 'db.t', consumerId => 'c', nextSnapshotId => 5)}: points
 * a streaming consumer ({@code consumer-id}) at the snapshot it reads next, or deletes it when no
 * snapshot is given, with Paimon's argument names. The snapshot must exist.
 */
final class ResetConsumerProcedure extends BaseProcedure {
  static final String NAME = "reset_consumer";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("consumerId", DataTypes.StringType).build(),
    ProcedureParameter.in("nextSnapshotId", DataTypes.LongType).defaultValue("NULL").build()
  };

  ResetConsumerProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Moves or deletes a streaming consumer", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    String id = input.getUTF8String(1).toString();
    ConsumerManager.checkId(id, table.name());
    ConsumerManager consumers = new ConsumerManager(table.fileIO(), table.paths());
    if (input.isNullAt(2)) {
      consumers.delete(id);
      return result(true);
    }
    long next = input.getLong(2);
    if (!table.snapshotManager().exists(next)) {
      throw new BasaltException(
          String.format(
              "%s: snapshot %d of table %s does not exist (expired or not yet written). Fix: pass"
                  + " a snapshot id listed in %s$snapshots.",
              NAME, next, table.name(), table.name()));
    }
    consumers.record(id, next);
    return result(true);
  }
}

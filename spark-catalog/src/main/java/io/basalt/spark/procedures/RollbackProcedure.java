package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.operation.history.Rollback;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.rollback(table => 'db.t', version => '3')}: rolls the table (or a branch, {@code
 * 'db.t$branch_b'}) back to a snapshot id or a tag, deleting the later snapshots, the tags on them
 * and the files only they used. {@code version} is a tag name if such a tag exists, else a snapshot
 * id; {@code snapshot => 3} or {@code tag => 'x'} say which explicitly. Exactly one is given.
 */
final class RollbackProcedure extends BaseProcedure {
  static final String NAME = "rollback";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("version", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("tag", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("snapshot", DataTypes.LongType).defaultValue("NULL").build()
  };

  RollbackProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Rolls a table back to a snapshot or tag, deleting later snapshots and tags",
        PARAMETERS,
        ROLLBACK_RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    String tableName = input.getUTF8String(0).toString();
    List<String> given = new ArrayList<>();
    for (int i = 1; i < PARAMETERS.length; i++) {
      if (!input.isNullAt(i)) {
        given.add(PARAMETERS[i].name());
      }
    }
    if (given.size() != 1) {
      throw new BasaltException(
          String.format(
              "rollback of %s needs exactly one of 'version', 'tag' or 'snapshot'; got %s. Fix:"
                  + " CALL sys.rollback(table => '%s', version => '<snapshot id or tag>').",
              tableName, given.isEmpty() ? "none" : String.join(" and ", given), tableName));
    }
    FileStoreTable table = loadTable(tableName);
    Optional<Snapshot> previous = table.latestSnapshot();
    Rollback rollback = new Rollback(table);
    Snapshot current;
    if (!input.isNullAt(1)) {
      current = rollback.toVersion(input.getUTF8String(1).toString());
    } else if (!input.isNullAt(2)) {
      current = rollback.toTag(input.getUTF8String(2).toString());
    } else {
      current = rollback.toSnapshot(input.getLong(3));
    }
    return rolledBack(previous, current);
  }
}

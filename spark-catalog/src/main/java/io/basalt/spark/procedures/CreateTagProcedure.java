package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.create_tag(table => 'db.t', tag => 'name', snapshot => N)}: tags snapshot N, or
 * the latest snapshot when {@code snapshot} is not given. Fails when the tag exists.
 */
final class CreateTagProcedure extends BaseProcedure {
  static final String NAME = "create_tag";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).build(),
    ProcedureParameter.in("snapshot", DataTypes.LongType).defaultValue("NULL").build()
  };

  CreateTagProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Creates a tag on a snapshot (the latest by default)", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    String tag = input.getUTF8String(1).toString();
    Snapshot snapshot =
        input.isNullAt(2)
            ? table
                .latestSnapshot()
                .orElseThrow(
                    () ->
                        new BasaltException(
                            String.format(
                                "create_tag: cannot tag table %s as '%s': it has no snapshots."
                                    + " Fix: write to the table first.",
                                table.name(), tag)))
            : table.timeTravel().snapshot(input.getLong(2));
    table.tagManager().create(tag, snapshot);
    return result(true);
  }
}

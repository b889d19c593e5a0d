package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.rename_branch(table => 'db.t', from_branch => 'b1', to_branch => 'b2')}: renames
 * a branch (not main) to a new, unused name, as Paimon does.
 */
final class RenameBranchProcedure extends BaseProcedure {
  static final String NAME = "rename_branch";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("from_branch", DataTypes.StringType).build(),
    ProcedureParameter.in("to_branch", DataTypes.StringType).build()
  };

  RenameBranchProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Renames a branch", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    table
        .branchManager()
        .rename(input.getUTF8String(1).toString().trim(), input.getUTF8String(2).toString().trim());
    return result(true);
  }
}

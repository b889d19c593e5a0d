package io.basalt.spark.procedures;

import io.basalt.operation.history.DeleteBranch;
import io.basalt.spark.SparkCatalog;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.delete_branch(table => 'db.t', branch => 'b1,b2')}: deletes the branches (a
 * comma-separated list, as in Paimon) and the files only they referenced. All names are checked
 * before anything is deleted; main cannot be deleted.
 */
final class DeleteBranchProcedure extends BaseProcedure {
  static final String NAME = "delete_branch";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("branch", DataTypes.StringType).build()
  };

  DeleteBranchProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Deletes branches and the files only they used", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    List<String> names = new ArrayList<>();
    for (String name : input.getUTF8String(1).toString().split(",", -1)) {
      names.add(name.trim());
    }
    new DeleteBranch(loadTable(input.getUTF8String(0).toString())).delete(names);
    return result(true);
  }
}

package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.create_branch(table => 'db.t', branch => 'b', tag => 'x')}: creates branch b
 * starting at tag x's snapshot, or empty with the current schema when no tag is given. The branch
 * is read and written as {@code db.t$branch_b}.
 */
final class CreateBranchProcedure extends BaseProcedure {
  static final String NAME = "create_branch";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("branch", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).defaultValue("NULL").build()
  };

  CreateBranchProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Creates a branch from a tag, or an empty one", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    String tag = input.isNullAt(2) ? null : input.getUTF8String(2).toString();
    loadTable(input.getUTF8String(0).toString())
        .branchManager()
        .create(input.getUTF8String(1).toString(), tag);
    return result(true);
  }
}

package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.branch.BranchManager;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$branches}: one row per branch other than main, sorted by name, with Paimon's columns.
 * The creation time is the branch directory's modification time, as in Paimon.
 */
final class BranchesTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("branch_name", DataTypes.StringType, false)
          .add("create_time", DataTypes.TimestampType, false);

  BranchesTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "branches";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    BranchManager branches = table.branchManager();
    List<InternalRow> rows = new ArrayList<>();
    for (String name : branches.branches()) {
      long created = branches.status(name).getModificationTime();
      rows.add(new GenericInternalRow(new Object[] {str(name), timestamp(created)}));
    }
    return rows;
  }
}

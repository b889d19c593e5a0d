package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TableTags;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.delete_tag(table => 'db.t', tag => 'name')}: deletes a tag and, when its snapshot
 * has expired, the files only the tag kept alive. Fails when the tag does not exist.
 */
final class DeleteTagProcedure extends BaseProcedure {
  static final String NAME = "delete_tag";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).build()
  };

  DeleteTagProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Deletes a tag", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    new TableTags(table).delete(input.getUTF8String(1).toString());
    return result(true);
  }
}

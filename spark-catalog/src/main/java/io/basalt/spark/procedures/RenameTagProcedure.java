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
 * {@code CALL sys.rename_tag(table => 'db.t', tag => 'old', target_tag => 'new')}: renames a tag.
 * Fails when {@code tag} does not exist or {@code target_tag} does.
 */
final class RenameTagProcedure extends BaseProcedure {
  static final String NAME = "rename_tag";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).build(),
    ProcedureParameter.in("target_tag", DataTypes.StringType).build()
  };

  RenameTagProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Renames a tag", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    new TableTags(table)
        .rename(input.getUTF8String(1).toString(), input.getUTF8String(2).toString());
    return result(true);
  }
}

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
 * {@code CALL sys.create_tag(table => 'db.t', tag => 'name', snapshot => N, time_retained => '1
 * d')}: tags snapshot N, or the latest snapshot when {@code snapshot} is not given; with {@code
 * time_retained} the tag expires that long after its creation. Fails when the tag exists.
 */
final class CreateTagProcedure extends BaseProcedure {
  static final String NAME = "create_tag";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).build(),
    ProcedureParameter.in("snapshot", DataTypes.LongType).defaultValue("NULL").build(),
    ProcedureParameter.in("time_retained", DataTypes.StringType).defaultValue("NULL").build()
  };

  CreateTagProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Creates a tag on a snapshot (the latest by default)", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    new TableTags(table)
        .create(
            input.getUTF8String(1).toString(),
            input.isNullAt(2) ? null : input.getLong(2),
            input.isNullAt(3) ? null : input.getUTF8String(3).toString());
    return result(true);
  }
}

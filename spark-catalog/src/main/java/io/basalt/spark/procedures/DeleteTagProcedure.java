package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TableTags;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.delete_tag(table => 'db.t', tag => 'a,b')}: deletes the tags (a comma-separated
 * list, as in Paimon) and, when their snapshots have expired, the files only they kept alive. Every
 * name is checked before any tag is deleted, so a missing tag deletes nothing.
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
    Set<String> names = new LinkedHashSet<>();
    for (String name : input.getUTF8String(1).toString().split(",", -1)) {
      names.add(name.trim());
    }
    for (String name : names) {
      table.tagManager().get(name); // fails naming the table's tags when one does not exist
    }
    TableTags tags = new TableTags(table);
    for (String name : names) {
      tags.delete(name);
    }
    return result(true);
  }
}

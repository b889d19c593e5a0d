package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TableTags;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL sys.expire_tags(table => 'db.t', older_than => TIMESTAMP '2024-12-01 00:00:00')}:
 * deletes the tags whose retention time passed and, with {@code older_than}, the tags created
 * before it, with the files only they kept alive. Returns one row per deleted tag.
 */
final class ExpireTagsProcedure extends BaseProcedure {
  static final String NAME = "expire_tags";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("older_than", DataTypes.TimestampType).defaultValue("NULL").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("expired_tags", DataTypes.StringType, false)
          });

  ExpireTagsProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Deletes tags whose retention passed, or created before older_than",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    // tag creation times are local times of the writer's default zone, as in Paimon
    LocalDateTime olderThan =
        input.isNullAt(1)
            ? null
            : LocalDateTime.ofInstant(
                Instant.EPOCH.plus(input.getLong(1), ChronoUnit.MICROS), ZoneId.systemDefault());
    List<Object[]> rows = new ArrayList<>();
    List<String> expired = new TableTags(table).expire(olderThan);
    // as Paimon: one row saying so when nothing expired
    for (String name : expired.isEmpty() ? List.of("No expired tags.") : expired) {
      rows.add(new Object[] {UTF8String.fromString(name)});
    }
    return results(rows);
  }
}

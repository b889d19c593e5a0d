package io.basalt.spark.procedures;

import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TableTags;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL sys.create_tag_from_timestamp(table => 'db.t', tag => 'name', timestamp =>
 * 1700000000000, time_retained => '1 d')}: tags the earliest snapshot committed at or after {@code
 * timestamp} (epoch milliseconds). Returns Paimon's columns: the tag, the snapshot id, its commit
 * time and its watermark.
 */
final class CreateTagFromTimestampProcedure extends BaseProcedure {
  static final String NAME = "create_tag_from_timestamp";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("tag", DataTypes.StringType).build(),
    ProcedureParameter.in("timestamp", DataTypes.LongType).build(),
    ProcedureParameter.in("time_retained", DataTypes.StringType).defaultValue("NULL").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("tagName", DataTypes.StringType, false),
            DataTypes.createStructField("snapshot", DataTypes.LongType, false),
            DataTypes.createStructField("commit_time", DataTypes.LongType, false),
            DataTypes.createStructField("watermark", DataTypes.StringType, true)
          });

  CreateTagFromTimestampProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Tags the earliest snapshot committed at or after a timestamp (epoch milliseconds)",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    String tag = input.getUTF8String(1).toString();
    Snapshot snapshot =
        new TableTags(table)
            .createFromTimestamp(
                tag,
                input.getLong(2),
                input.isNullAt(3) ? null : input.getUTF8String(3).toString());
    return result(
        UTF8String.fromString(tag),
        snapshot.id(),
        snapshot.timeMillis(),
        snapshot.watermark() == null
            ? null
            : UTF8String.fromString(snapshot.watermark().toString()));
  }
}

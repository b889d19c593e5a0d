package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.Tag;
import io.basalt.table.FileStoreTable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$tags}: one row per tag, sorted by name, with the tagged snapshot and, for tags with a
 * retention, their creation time and time retained (ISO-8601, as Paimon shows it).
 */
final class TagsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("tag_name", DataTypes.StringType, false)
          .add("snapshot_id", DataTypes.LongType, false)
          .add("schema_id", DataTypes.LongType, false)
          .add("commit_time", DataTypes.TimestampType, false)
          .add("record_count", DataTypes.LongType)
          .add("create_time", DataTypes.TimestampType)
          .add("time_retained", DataTypes.StringType);

  TagsTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "tags";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    List<InternalRow> rows = new ArrayList<>();
    for (Tag tag : table.tagManager().tagObjects()) {
      Snapshot s = tag.snapshot();
      // creation times are local times of the writer's default zone
      Long created =
          tag.createTime() == null
              ? null
              : tag.createTime().atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
      rows.add(
          new GenericInternalRow(
              new Object[] {
                str(tag.name()),
                s.id(),
                s.schemaId(),
                timestamp(s.timeMillis()),
                s.totalRecordCount(),
                timestamp(created),
                str(tag.timeRetained())
              }));
    }
    return rows;
  }
}

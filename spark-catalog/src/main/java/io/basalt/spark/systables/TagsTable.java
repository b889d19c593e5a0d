package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** {@code t$tags}: one row per tag, sorted by name, with the tagged snapshot. */
final class TagsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("tag_name", DataTypes.StringType, false)
          .add("snapshot_id", DataTypes.LongType, false)
          .add("schema_id", DataTypes.LongType, false)
          .add("commit_time", DataTypes.TimestampType, false)
          .add("record_count", DataTypes.LongType);

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
    for (Map.Entry<String, Snapshot> tag : table.tagManager().tags().entrySet()) {
      Snapshot s = tag.getValue();
      rows.add(
          new GenericInternalRow(
              new Object[] {
                str(tag.getKey()),
                s.id(),
                s.schemaId(),
                timestamp(s.timeMillis()),
                s.totalRecordCount()
              }));
    }
    return rows;
  }
}

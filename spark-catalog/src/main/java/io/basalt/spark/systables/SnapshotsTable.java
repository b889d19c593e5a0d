package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** {@code t$snapshots}: one row per snapshot still on disk, oldest first. */
final class SnapshotsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("snapshot_id", DataTypes.LongType, false)
          .add("schema_id", DataTypes.LongType, false)
          .add("commit_user", DataTypes.StringType, false)
          .add("commit_identifier", DataTypes.LongType, false)
          .add("commit_kind", DataTypes.StringType, false)
          .add("commit_time", DataTypes.TimestampType, false)
          .add("base_manifest_list", DataTypes.StringType, false)
          .add("delta_manifest_list", DataTypes.StringType, false)
          .add("changelog_manifest_list", DataTypes.StringType)
          .add("total_record_count", DataTypes.LongType)
          .add("delta_record_count", DataTypes.LongType)
          .add("changelog_record_count", DataTypes.LongType)
          .add("watermark", DataTypes.LongType)
          // Paimon 2.x's; Basalt's snapshot files record neither operation nor writer version
          .add("next_row_id", DataTypes.LongType)
          .add("operation", DataTypes.StringType)
          .add("writer_version", DataTypes.StringType);

  SnapshotsTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "snapshots";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    SnapshotManager snapshots = table.snapshotManager();
    OptionalLong earliest = snapshots.earliestSnapshotId();
    OptionalLong latest = snapshots.latestSnapshotId();
    List<InternalRow> rows = new ArrayList<>();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return rows;
    }
    for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
      if (snapshots.exists(id)) {
        rows.add(row(snapshots.snapshot(id)));
      }
    }
    return rows;
  }

  static InternalRow row(Snapshot s) {
    return new GenericInternalRow(
        new Object[] {
          s.id(),
          s.schemaId(),
          str(s.commitUser()),
          s.commitIdentifier(),
          str(s.commitKind().name()),
          timestamp(s.timeMillis()),
          str(s.baseManifestList()),
          str(s.deltaManifestList()),
          str(s.changelogManifestList()),
          s.totalRecordCount(),
          s.deltaRecordCount(),
          s.changelogRecordCount(),
          s.watermark(),
          s.nextRowId(),
          null,
          null
        });
  }
}

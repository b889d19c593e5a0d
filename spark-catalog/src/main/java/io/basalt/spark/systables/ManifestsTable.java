package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;

import io.basalt.manifest.ManifestFileMeta;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$manifests}: the data manifests (base, then delta) of the latest snapshot, with Paimon's
 * columns; the partition stats are rendered like {@code t$files}' partitions ({@code [v1, v2]}).
 */
final class ManifestsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("file_name", DataTypes.StringType, false)
          .add("file_size", DataTypes.LongType, false)
          .add("num_added_files", DataTypes.LongType, false)
          .add("num_deleted_files", DataTypes.LongType, false)
          .add("schema_id", DataTypes.LongType, false)
          .add("min_partition_stats", DataTypes.StringType)
          .add("max_partition_stats", DataTypes.StringType)
          .add("min_row_id", DataTypes.LongType)
          .add("max_row_id", DataTypes.LongType);

  ManifestsTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "manifests";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  @Override
  protected List<InternalRow> rows() {
    List<InternalRow> rows = new ArrayList<>();
    Snapshot latest = table.timeTravelSnapshot().or(table::latestSnapshot).orElse(null);
    if (latest == null) {
      return rows;
    }
    List<ManifestFileMeta> metas = new ArrayList<>();
    metas.addAll(table.manifestFiles().readManifestList(latest.baseManifestList()));
    metas.addAll(table.manifestFiles().readManifestList(latest.deltaManifestList()));
    StructType partitionType = table.partitionType();
    for (ManifestFileMeta meta : metas) {
      rows.add(
          new GenericInternalRow(
              new Object[] {
                str(meta.fileName()),
                meta.fileSize(),
                meta.numAddedFiles(),
                meta.numDeletedFiles(),
                meta.schemaId(),
                str(Values.list(meta.partitionStats().minValues(), partitionType)),
                str(Values.list(meta.partitionStats().maxValues(), partitionType)),
                // row tracking is not supported: manifests record no row ids
                null,
                null
              }));
    }
    return rows;
  }
}

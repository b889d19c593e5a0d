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

/** {@code t$manifests}: the data manifests (base, then delta) of the latest snapshot. */
final class ManifestsTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("file_name", DataTypes.StringType, false)
          .add("file_size", DataTypes.LongType, false)
          .add("num_added_files", DataTypes.LongType, false)
          .add("num_deleted_files", DataTypes.LongType, false)
          .add("schema_id", DataTypes.LongType, false);

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
    for (ManifestFileMeta meta : metas) {
      rows.add(
          new GenericInternalRow(
              new Object[] {
                str(meta.fileName()),
                meta.fileSize(),
                meta.numAddedFiles(),
                meta.numDeletedFiles(),
                meta.schemaId()
              }));
    }
    return rows;
  }
}

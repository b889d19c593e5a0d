package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.operation.maintenance.SnapshotExpireAction;
import io.basalt.options.ChangelogRetention;
import io.basalt.options.Options;
import io.basalt.options.SnapshotOptions;
import io.basalt.options.SnapshotRetention;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL sys.expire_snapshots(table => 'db.t', retain_max => N, retain_min => N, older_than =>
 * TIMESTAMP, max_deletes => N)}: expires old snapshots now; unset arguments come from the table's
 * snapshot options. The table's changelog retention still applies: changelog it keeps longer than
 * these snapshots is kept as decoupled changelog, and decoupled changelog past that retention is
 * expired. Returns the number of snapshots removed.
 */
final class ExpireSnapshotsProcedure extends BaseProcedure {
  static final String NAME = "expire_snapshots";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("retain_max", DataTypes.IntegerType).defaultValue("NULL").build(),
    ProcedureParameter.in("retain_min", DataTypes.IntegerType).defaultValue("NULL").build(),
    ProcedureParameter.in("older_than", DataTypes.TimestampType).defaultValue("NULL").build(),
    ProcedureParameter.in("max_deletes", DataTypes.IntegerType).defaultValue("NULL").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("deleted_snapshots_count", DataTypes.IntegerType, false)
          });

  ExpireSnapshotsProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Expires old snapshots and deletes the files only they reference",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    Options options = table.options();
    int retainMax =
        input.isNullAt(1)
            ? options.get(SnapshotOptions.SNAPSHOT_NUM_RETAINED_MAX)
            : input.getInt(1);
    // an explicit retain_max below the table's minimum lowers the minimum with it
    int retainMin =
        input.isNullAt(2)
            ? Math.min(
                options.get(SnapshotOptions.SNAPSHOT_NUM_RETAINED_MIN), Math.max(1, retainMax))
            : input.getInt(2);
    long olderThan =
        input.isNullAt(3)
            ? System.currentTimeMillis() - options.get(SnapshotOptions.SNAPSHOT_TIME_RETAINED)
            : input.getLong(3) / 1000;
    int maxDeletes =
        input.isNullAt(4) ? options.get(SnapshotOptions.SNAPSHOT_EXPIRE_LIMIT) : input.getInt(4);
    if (retainMin < 1 || retainMax < retainMin) {
      throw new BasaltException(
          String.format(
              "expire_snapshots on %s: retain_min (%s) must be >= 1 and retain_max (%s) >= retain_min",
              table.name(), retainMin, retainMax));
    }
    // the table's changelog retention still holds: changelog it keeps longer stays decoupled
    ChangelogRetention changelog =
        ChangelogRetention.of(
            options,
            new SnapshotRetention(
                retainMin,
                retainMax,
                System.currentTimeMillis() - olderThan,
                Math.max(1, maxDeletes)));
    int deleted =
        new ExpireSnapshots(table)
            .withChangelogDecoupled(changelog.decoupled())
            .expire(retainMin, retainMax, olderThan, maxDeletes);
    SnapshotExpireAction.expireChangelogs(table, changelog, System.currentTimeMillis());
    return result(deleted);
  }
}

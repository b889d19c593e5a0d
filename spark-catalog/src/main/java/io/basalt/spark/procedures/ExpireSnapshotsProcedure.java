package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.options.Options;
import io.basalt.options.SnapshotOptions;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL sys.expire_snapshots(table => 'db.t', retain_max => N, retain_min => N, older_than =>
 * TIMESTAMP, max_deletes => N)}: expires old snapshots now; unset arguments come from the table's
 * snapshot options. Returns the number of snapshots removed.
 */
final class ExpireSnapshotsProcedure implements UnboundProcedure, BoundProcedure {
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

  private final SparkCatalog catalog;

  ExpireSnapshotsProcedure(SparkCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Expires old snapshots and deletes the files only they reference";
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public ProcedureParameter[] parameters() {
    return PARAMETERS;
  }

  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0));
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
    int deleted = new ExpireSnapshots(table).expire(retainMin, retainMax, olderThan, maxDeletes);
    InternalRow row = new GenericInternalRow(new Object[] {deleted});
    return Collections.<Scan>singletonList(new Result(row)).iterator();
  }

  private FileStoreTable loadTable(UTF8String name) {
    String[] parts = name.toString().split("\\.");
    Identifier ident =
        parts.length == 1
            ? Identifier.of(catalog.defaultNamespace(), parts[0])
            : Identifier.of(new String[] {parts[parts.length - 2]}, parts[parts.length - 1]);
    try {
      return catalog.loadFileStoreTable(ident);
    } catch (NoSuchTableException e) {
      throw new BasaltException("expire_snapshots: table " + name + " does not exist", e);
    }
  }

  /** The one-row result. */
  private record Result(InternalRow row) implements LocalScan {
    @Override
    public InternalRow[] rows() {
      return new InternalRow[] {row};
    }

    @Override
    public StructType readSchema() {
      return OUTPUT;
    }
  }
}

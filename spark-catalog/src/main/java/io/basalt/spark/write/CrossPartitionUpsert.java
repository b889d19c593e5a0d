package io.basalt.spark.write;

import io.basalt.BasaltException;
import io.basalt.merge.MergeEngine;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.types.StructType;

/**
 * What the session extensions' cross-partition rule needs to know about a table whose primary key
 * leaves out a partition column ({@code 'bucket' = '-1'}), and the routed table it writes to.
 *
 * <p>A routed write carries, after the table's columns, {@link #DELETE} (whether the row retracts
 * its key), {@link #BUCKET} (the bucket the key already lives in, or -1 for the HASH index to pick
 * one) and {@link #ORDER} (the row's place in the input, which orders the rows of one key).
 */
public final class CrossPartitionUpsert {
  public static final String DELETE = "__basalt_delete";
  public static final String BUCKET = "__basalt_bucket";
  public static final String ORDER = "__basalt_order";

  private CrossPartitionUpsert() {}

  /** Whether {@code table} is a Basalt cross-partition upsert table. */
  public static boolean applies(Table table) {
    return table instanceof SparkTable spark
        && !(table instanceof CrossPartitionTable)
        && spark.fileStoreTable().schema().crossPartitionUpsert();
  }

  private static FileStoreTable of(Table table) {
    return ((SparkTable) table).fileStoreTable();
  }

  public static List<String> primaryKeys(Table table) {
    return of(table).schema().primaryKeys();
  }

  public static List<String> partitionKeys(Table table) {
    return of(table).schema().partitionKeys();
  }

  /** What a write does with a key that already lives in another partition. */
  public enum Rule {
    /** Delete it there and write the new row in its own partition (deduplicate). */
    MOVE,
    /** Write the new row into the key's partition (partial-update, aggregation). */
    UPDATE_IN_PLACE,
    /** Keep the existing row, drop the new one (first-row). */
    KEEP_FIRST
  }

  /** The merge engine's rule for a key that arrives in another partition. */
  public static Rule rule(Table table) {
    return switch (MergeEngine.of(of(table)).crossPartitionRule()) {
      case MOVE -> Rule.MOVE;
      case UPDATE_IN_PLACE -> Rule.UPDATE_IN_PLACE;
      case KEEP_FIRST -> Rule.KEEP_FIRST;
    };
  }

  /** The merge engine's option value, for messages. */
  public static String engineName(Table table) {
    return MergeEngine.of(of(table)).kind().value();
  }

  /** The latest snapshot, which the key lookup reads and the write starts from (null: empty). */
  @Nullable
  public static Long latestSnapshotId(Table table) {
    return of(table).latestSnapshot().map(Snapshot::id).orElse(null);
  }

  /**
   * The table a routed write goes to: {@code table} with the routing columns of {@code schema}.
   *
   * @param baseSnapshotId the snapshot the key lookup read; the commit fails if another write
   *     committed after it
   */
  public static Table routed(Table table, StructType schema, @Nullable Long baseSnapshotId) {
    return new CrossPartitionTable(of(table), schema, baseSnapshotId);
  }

  /** The error of a write that reached a cross-partition table without the rule's routing. */
  static BasaltException needsRouting(FileStoreTable table, String write) {
    return new BasaltException(
        String.format(
            "Table %s is a cross-partition upsert table (its primary key %s leaves out partition"
                + " column(s) of %s): %s must find each key's current partition first, which"
                + " Basalt's session extensions do for batch INSERT INTO and DataFrame appends."
                + " Fix: set spark.sql.extensions=io.basalt.spark.extensions."
                + "BasaltSparkSessionExtensions, write in batch, or add the partition columns to"
                + " the primary key.",
            table.name(), table.schema().primaryKeys(), table.schema().partitionKeys(), write));
  }
}

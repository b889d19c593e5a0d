package io.basalt.spark.procedures;

import io.basalt.blob.BlobCompaction;
import io.basalt.bucket.PostponedBucket;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.scan.TableScan;
import io.basalt.options.TableOptionCheck;
import io.basalt.spark.SparkCatalog;
import io.basalt.spark.procedures.CompactArguments.OrderStrategy;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.compact(table => 'db.t', partitions => 'dt=1,hh=2;dt=3', compact_strategy =>
 * 'full'|'minor', order_strategy => 'none'|'order'|'zorder', order_by => 'a,b', where => 'dt >
 * ...', options => 'k=v,...', partition_idle_time => '1 d')}, with Paimon's names and meanings:
 * compacts the buckets of the selected partitions in one Spark job (one task per bucket) and
 * commits them as one COMPACT snapshot; order/zorder re-cluster append tables. Returns {@code
 * result} (true, as Paimon does), the new snapshot's id (null when there was nothing to do) and how
 * many files were replaced and written. On a postponed-bucket table it first moves the postponed
 * rows into numbered buckets (see {@link PostponedCompactJob}).
 */
final class CompactProcedure extends BaseProcedure {
  static final String NAME = "compact";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("partitions", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("compact_strategy", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("order_strategy", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("order_by", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("where", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("options", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("partition_idle_time", DataTypes.StringType).defaultValue("NULL").build()
  };

  CompactProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Compacts the buckets of a table (or of some partitions) and re-clusters append tables",
        PARAMETERS,
        RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    CompactArguments parsed = CompactArguments.parse(input);
    FileStoreTable table = withOptions(loadTable(parsed.table()), parsed.options());
    CompactArguments args = parsed.validate(table);
    if (args.order() != OrderStrategy.NONE) {
      BlobCompaction.checkNoReclustering(table.rowType(), table.options(), table.name());
    }
    // every live file, level 0 included: deletion-vector reads hide level 0, compaction must not
    TableScan.Plan plan = table.newScan().forCompaction().plan();
    List<DataSplit> splits = selectedSplits(table, plan.splits(), args);
    if (new PostponedCompactJob(table).run(splits)) {
      // postponed rows now sit in level 0 of their buckets: compact those as well
      plan = table.newScan().forCompaction().plan();
      splits = selectedSplits(table, plan.splits(), args);
    }
    splits = splits.stream().filter(split -> split.bucket() != PostponedBucket.BUCKET).toList();
    CompactJob job = new CompactJob(table);
    // Paimon's output: one row result = true; the COMPACT snapshot shows in t$snapshots
    if (args.order() == OrderStrategy.NONE || splits.isEmpty()) {
      job.run(splits, CompactJob.bucketCompaction(table, args.full()));
    } else {
      job.run(splits, sortTask(table, plan.snapshot().id(), args));
    }
    return result(true);
  }

  private static CompactJob.BucketTask sortTask(
      FileStoreTable table, long snapshotId, CompactArguments args) {
    SortRewrite rewrite =
        new SortRewrite(table, snapshotId, args.order() == OrderStrategy.ZORDER, args.orderBy());
    return rewrite::rewrite;
  }

  /**
   * The table with the {@code options} argument over its own options, checked as ALTER TABLE SET
   * checks them, as Paimon copies the table with them for the compaction.
   */
  private static FileStoreTable withOptions(FileStoreTable table, Map<String, String> options) {
    if (options.isEmpty()) {
      return table;
    }
    TableOptionCheck.check(options, List.of(table.rowType().fieldNames()), table.name());
    return table.copyWithOptions(options);
  }

  /**
   * The splits of the selected partitions; every live file of each bucket. With {@code
   * partition_idle_time}, only partitions whose newest file was created at least that long ago.
   */
  private static List<DataSplit> selectedSplits(
      FileStoreTable table, List<DataSplit> all, CompactArguments args) {
    Map<BinaryRow, Long> newestFile = new LinkedHashMap<>();
    for (DataSplit split : all) {
      for (DataFileMeta file : split.files()) {
        Long created = file.creationTimeMillis();
        newestFile.merge(split.partition(), created == null ? Long.MIN_VALUE : created, Math::max);
      }
    }
    List<BinaryRow> partitions = new ArrayList<>();
    long idleBound =
        args.partitionIdleMillis() == null
            ? Long.MAX_VALUE
            : System.currentTimeMillis() - args.partitionIdleMillis();
    newestFile.forEach(
        (partition, newest) -> {
          if (newest <= idleBound) {
            partitions.add(partition);
          }
        });
    Set<BinaryRow> selected = new PartitionSelection(table).select(partitions, args);
    List<DataSplit> splits = new ArrayList<>();
    for (DataSplit split : all) {
      if (selected.contains(split.partition())) {
        splits.add(split);
      }
    }
    return splits;
  }
}

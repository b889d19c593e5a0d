package io.basalt.spark.read;

import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalScan;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.predicate.Predicate;
import io.basalt.spark.stream.StreamingReads;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.types.StructType;

/**
 * A read of changes: the incremental range the read options select ({@code incremental-between} and
 * friends), or, for {@code t$audit_log} without a range, the snapshot read as changes (each key's
 * merged row with its kind). One input partition per {@link IncrementalSplit}. Rows stream from the
 * engine; filters on partition columns prune partitions, and Spark evaluates every filter.
 */
final class SparkIncrementalScan implements Scan, Batch, SupportsReportStatistics {
  /** Set once Spark streams this scan: then no batch plan is made for its description. */
  private boolean streaming;

  private final FileStoreTable table;
  private final StructType readSchema;
  private final StructType dataSchema;
  private final boolean rowKinds;
  private final boolean binlog;
  private final Optional<IncrementalRange> range;
  @Nullable private final Predicate partitionFilter;
  private List<IncrementalSplit> splits;

  /**
   * @param readSchema the columns to produce: the row kind first when {@code rowKinds}, then table
   *     columns
   * @param binlog whether to produce {@code t$binlog} rows (see {@link BinlogRows}); needs {@code
   *     rowKinds}
   * @param range the range to read, or empty to read the current snapshot as changes
   * @param partitionFilter the pushed filters on partition columns, for pruning partitions
   */
  SparkIncrementalScan(
      FileStoreTable table,
      StructType readSchema,
      boolean rowKinds,
      boolean binlog,
      Optional<IncrementalRange> range,
      @Nullable Predicate partitionFilter) {
    this.table = table;
    this.partitionFilter = partitionFilter;
    this.rowKinds = rowKinds;
    this.binlog = binlog;
    this.range = range;
    StructType data = new StructType();
    for (int i = rowKinds ? 1 : 0; i < readSchema.size(); i++) {
      data = data.add(readSchema.fields()[i]);
    }
    this.dataSchema = data;
    this.readSchema = binlog ? ChangeRows.binlogSchema(data) : readSchema;
  }

  private List<IncrementalSplit> splits() {
    if (splits == null) {
      IncrementalScan scan = new IncrementalScan(table).withPartitionFilter(partitionFilter);
      splits =
          range.isPresent()
              ? scan.plan(range.get())
              : scan.planSnapshot(table.timeTravelSnapshot().or(() -> table.latestSnapshot()));
    }
    return splits;
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  /** A stream of {@code t$audit_log}: every change with its row kind. */
  @Override
  public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    streaming = true;
    if (binlog) {
      throw new io.basalt.BasaltException(
          "Streaming reads of "
              + table.name()
              + "$binlog are not supported. Fix: stream"
              + " "
              + table.name()
              + "$audit_log, which has the same changes with their row kinds.");
    }
    return StreamingReads.start(table, rowKinds);
  }

  @Override
  public Batch toBatch() {
    StreamingReads.checkBatch(table);
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    return splits().stream().map(IncrementalInputPartition::new).toArray(InputPartition[]::new);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new IncrementalReaderFactory(
        new IncrementalRead(table, dataSchema), rowKinds, binlog ? dataSchema : null);
  }

  @Override
  public Statistics estimateStatistics() {
    long rows = 0;
    long bytes = 0;
    if (streaming) {
      // a stream's batches are planned per micro-batch; its start may be an expired snapshot
      return new ScanStatistics(bytes, rows);
    }
    for (IncrementalSplit split : splits()) {
      rows += split.rowCount();
      bytes += split.sizeInBytes();
    }
    return new ScanStatistics(bytes, rows);
  }

  @Override
  public String description() {
    return String.format(
        "BasaltChangeScan(%s, columns=[%s], partitions=[%s], %s, splits=%s)",
        table.name(),
        String.join(", ", readSchema.fieldNames()),
        partitionFilter == null ? "all" : partitionFilter,
        range
            .map(
                r ->
                    r.mode().name().toLowerCase(java.util.Locale.ROOT)
                        + " after snapshot "
                        + r.startId()
                        + " up to "
                        + (r.end() == null ? "none" : r.end().id()))
            .orElse("snapshot as changes"),
        // a stream plans per micro-batch; its start may be an expired snapshot
        streaming ? "per micro-batch" : splits().size());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SparkIncrementalScan other
        && table.name().equals(other.table.name())
        && table.paths().toString().equals(other.table.paths().toString())
        && readSchema.equals(other.readSchema)
        && rowKinds == other.rowKinds
        && binlog == other.binlog
        && String.valueOf(partitionFilter).equals(String.valueOf(other.partitionFilter))
        && range.equals(other.range);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table.name(), readSchema, rowKinds);
  }
}

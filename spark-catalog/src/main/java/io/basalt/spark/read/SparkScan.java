package io.basalt.spark.read;

import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.scan.SplitPacker;
import io.basalt.operation.scan.TableScan;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.predicate.Predicate;
import io.basalt.spark.SparkTable;
import io.basalt.spark.stream.StreamingReads;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportOrdering;
import org.apache.spark.sql.connector.read.SupportsReportPartitioning;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.connector.read.partitioning.KeyGroupedPartitioning;
import org.apache.spark.sql.connector.read.partitioning.Partitioning;
import org.apache.spark.sql.connector.read.partitioning.UnknownPartitioning;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read of one snapshot: splits packed into input partitions by size. Planning happens
 * once, on first use, and is pinned to the snapshot that was latest then, or to the one the
 * time-travel read options select.
 *
 * <p>The scan is <b>columnar</b> or reads rows as {@link ColumnarReads} decides; the {@link
 * #description()} says which.
 *
 * <p>The read schema is the table columns followed by the {@link MetadataColumns metadata columns}
 * the query asked for; a scan asking for the file path or row index of rows that are merged on read
 * fails at planning.
 *
 * <p>With {@code scan.preserve-data-grouping} a fixed-bucket scan reports its buckets instead, so
 * joins and aggregations on the bucket key need no shuffle: see {@link BucketGrouping}. The choice
 * is fixed when the scan is created, and runtime filters (dynamic partition pruning on partition
 * columns, the file filter of a rewrite) only ever drop splits of the plan, so a grouped scan keeps
 * a subset of its keys.
 */
public final class SparkScan
    implements Scan,
        Batch,
        SupportsReportStatistics,
        SupportsRuntimeV2Filtering,
        SupportsReportPartitioning,
        SupportsReportOrdering {
  /** Set once Spark streams this scan: then no batch plan is made for its description. */
  private boolean streaming;

  private final FileStoreTable table;
  private final StructType readSchema;

  /** The table columns of the read schema; the metadata columns follow them. */
  private final StructType dataSchema;

  private final MetadataColumns metadata;
  @Nullable private final Predicate filter;
  @Nullable private final Predicate bucketFilter;
  private final Filter[] parquetFilters;
  private final int limit;

  /** Whether this scan reads the files a copy-on-write row-level operation rewrites. */
  private final boolean rewrite;

  /** {@code scan.preserve-data-grouping} and V2 bucketing, as they were at scan creation. */
  private final boolean groupingRequested;

  private final boolean v2Bucketing;

  /**
   * Whether Spark may combine input partitions of different keys into one task (compatible bucket
   * counts, join keys a subset of the partitioning): it decides a scan's ordering before it does
   * that, so a reported ordering would be wrong and a sort-merge join would miss rows.
   */
  private final boolean sparkMayMergeKeys;

  private static final Statistics UNKNOWN_STATISTICS =
      new Statistics() {
        @Override
        public OptionalLong sizeInBytes() {
          return OptionalLong.empty();
        }

        @Override
        public OptionalLong numRows() {
          return OptionalLong.empty();
        }
      };

  private TableScan.Plan plan;

  private Boolean columnar;
  private BucketGrouping grouping;
  private BucketGrouping.Layout layout;

  /**
   * @param filter the pushed filters, for planning
   * @param parquetFilters the same filters as Spark data source filters (those that convert), for
   *     skipping row groups on the columnar path
   */
  SparkScan(
      FileStoreTable table,
      StructType readSchema,
      @Nullable Predicate filter,
      @Nullable Predicate bucketFilter,
      Filter[] parquetFilters,
      int limit,
      boolean rewrite) {
    this.limit = limit;
    this.rewrite = rewrite;
    this.table = table;
    this.readSchema = readSchema;
    StructType tableSchema = SparkTable.sparkSchema(table.schema());
    this.dataSchema = MetadataColumns.dataSchema(tableSchema, readSchema);
    this.metadata = MetadataColumns.of(tableSchema, readSchema);
    this.filter = filter;
    this.bucketFilter = bucketFilter;
    this.parquetFilters = parquetFilters;
    this.groupingRequested = table.options().get(ReadOptions.SCAN_PRESERVE_DATA_GROUPING);
    this.v2Bucketing = SQLConf.get().v2BucketingEnabled();
    this.sparkMayMergeKeys =
        confEnabled("spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled")
            || confEnabled(
                "spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled");
  }

  private static boolean confEnabled(String key) {
    return Boolean.parseBoolean(SQLConf.get().getConfString(key, "false"));
  }

  private TableScan.Plan plan() {
    if (plan == null) {
      TableScan scan =
          table
              .newScan()
              .withFilter(filter)
              .withBucketFilter(bucketFilter)
              .withDriverManifestCache();
      // time travel: VERSION/TIMESTAMP AS OF pin the table through these read options
      table.timeTravelSnapshot().ifPresent(scan::withSnapshot);
      plan = ScanLimit.keep(scan.plan(), filter == null ? limit : -1);
    }
    return plan;
  }

  /**
   * The live files this scan reads, as the ADD entries of its snapshot: what a copy-on-write
   * rewrite replaces. Reflects the runtime file filter once Spark applied it.
   */
  public List<ManifestEntry> files() {
    List<ManifestEntry> files = new ArrayList<>();
    for (DataSplit split : plan().splits()) {
      for (DataFileMeta file : split.files()) {
        files.add(
            new ManifestEntry(
                FileKind.ADD, split.partition(), split.bucket(), split.totalBuckets(), file));
      }
    }
    return files;
  }

  /**
   * A rewrite scan lets Spark narrow it, at run time, to the files that hold rows the operation
   * changes ({@value MetadataColumns#FILE_PATH} IN (...)), so only those files are rewritten. Other
   * scans take dynamic partition pruning filters on the partition columns they read.
   */
  @Override
  public NamedReference[] filterAttributes() {
    if (rewrite) {
      return new NamedReference[] {Expressions.column(MetadataColumns.FILE_PATH)};
    }
    List<String> read = List.of(dataSchema.fieldNames());
    return table.schema().partitionKeys().stream()
        .filter(read::contains)
        .map(k -> Expressions.column(k))
        .toArray(NamedReference[]::new);
  }

  @Override
  public void filter(org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    if (rewrite) {
      Set<String> names = RuntimeFilters.fileNames(predicates);
      if (names != null) {
        plan = RuntimeFilters.keepFiles(plan(), names);
        replanned();
      }
      return;
    }
    Predicate partitions =
        RuntimeFilters.partitionFilter(
            predicates, SparkTable.sparkSchema(table.schema()), table.schema().partitionKeys());
    if (partitions != null) {
      plan = RuntimeFilters.keepPartitions(plan(), partitions, table.partitionType());
      replanned();
    }
  }

  private void replanned() {
    columnar = null;
    layout = null;
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    streaming = true;
    return StreamingReads.start(table, false);
  }

  @Override
  public Batch toBatch() {
    StreamingReads.checkBatch(table);
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    metadata.checkReadable(table, plan().splits());
    if (grouping().on()) {
      return layout().partitions();
    }
    return packer().pack(plan().splits()).stream()
        .map(PackedInputPartition::new)
        .toArray(InputPartition[]::new);
  }

  private SplitPacker packer() {
    Options options = table.options();
    return new SplitPacker(
        options.get(ReadOptions.SPLIT_TARGET_SIZE), options.get(ReadOptions.SPLIT_OPEN_FILE_COST));
  }

  /** The layout decision, made once: runtime filtering must not change what Spark planned with. */
  private BucketGrouping grouping() {
    if (grouping == null) {
      grouping =
          BucketGrouping.decide(
              table, readSchema, plan().splits(), groupingRequested, v2Bucketing, rewrite);
    }
    return grouping;
  }

  private BucketGrouping.Layout layout() {
    if (layout == null) {
      layout = grouping().plan(plan().splits(), packer());
    }
    return layout;
  }

  /** What the {@code RepartitionLargeBlobScan} rule needs to know; plans nothing. */
  public BlobScanSizing blobScanSizing() {
    return BlobScanSizing.of(table);
  }

  @Override
  public Partitioning outputPartitioning() {
    if (grouping().on()) {
      return new KeyGroupedPartitioning(grouping().keys(), layout().keyCount());
    }
    return new UnknownPartitioning(0);
  }

  @Override
  public SortOrder[] outputOrdering() {
    return ordered() ? grouping().ordering() : new SortOrder[0];
  }

  private boolean ordered() {
    return grouping().on() && layout().ordered() && !sparkMayMergeKeys;
  }

  /** Whether this scan reads columnar batches; decided once, with the plan. */
  boolean columnar() {
    if (columnar == null) {
      columnar = ColumnarReads.columnar(table, dataSchema, metadata, plan().splits());
    }
    return columnar;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    metadata.checkReadable(table, plan().splits());
    return ColumnarReads.readerFactory(table, dataSchema, metadata, parquetFilters, columnar());
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return PlanningMetrics.withPlanning(
        new ColumnarSplitsMetric(),
        new MergedSplitsMetric(),
        new RowsMergedMetric(),
        new UnmergedSectionsMetric(),
        new DeletedRowsSkippedMetric(),
        new ParquetFilterMetrics.RowGroupsSkipped(),
        new ParquetFilterMetrics.RowsSkipped(),
        new OrcFilterMetrics.RowGroupsSkipped(),
        new OrcFilterMetrics.RowsSkipped());
  }

  /** What planning did, shown in the SQL UI and {@code QueryExecution} metrics. */
  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    if (streaming) {
      return new CustomTaskMetric[0]; // each micro-batch plans its own splits, not this batch plan
    }
    return PlanningMetrics.values(plan().metrics());
  }

  @Override
  public Statistics estimateStatistics() {
    if (streaming) {
      return UNKNOWN_STATISTICS; // a micro-batch's size is its changes', not the table's
    }
    long rows = 0;
    long bytes = 0;
    for (DataSplit split : plan().splits()) {
      rows += split.rowCount();
      bytes += split.sizeInBytes();
    }
    return new ScanStatistics(bytes, rows);
  }

  @Override
  public String description() {
    if (streaming) {
      return String.format(
          "BasaltStreamScan(%s, columns=[%s])",
          table.name(), String.join(", ", readSchema.fieldNames()));
    }
    return String.format(
        "BasaltScan(%s, columns=[%s], filters=[%s], buckets=[%s], splits=%s, columnar=%s, %s)",
        table.name(),
        String.join(", ", readSchema.fieldNames()),
        filter == null ? "" : filter,
        ScanBuckets.describe(table, filter, bucketFilter, plan().splits()),
        plan().splits().size(),
        columnar(),
        grouping().describe(ordered()));
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true; // without planning: a streaming scan's start options need not name a batch
    }
    return o instanceof SparkScan other
        && table.name().equals(other.table.name())
        && table.paths().toString().equals(other.table.paths().toString())
        && readSchema.equals(other.readSchema)
        && Objects.equals(String.valueOf(filter), String.valueOf(other.filter))
        && Objects.equals(String.valueOf(bucketFilter), String.valueOf(other.bucketFilter))
        && groupingRequested == other.groupingRequested
        && v2Bucketing == other.v2Bucketing
        && streaming == other.streaming
        && (streaming || snapshotId() == other.snapshotId());
  }

  private long snapshotId() {
    return plan().snapshot() == null ? 0 : plan().snapshot().id();
  }

  @Override
  public int hashCode() {
    return Objects.hash(table.name(), readSchema, String.valueOf(filter));
  }
}

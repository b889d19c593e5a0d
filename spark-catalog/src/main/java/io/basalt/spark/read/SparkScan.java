package io.basalt.spark.read;

import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.scan.ScanMetrics;
import io.basalt.operation.scan.SplitPacker;
import io.basalt.operation.scan.TableScan;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.predicate.Predicate;
import io.basalt.spark.SparkTable;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.internal.connector.PredicateUtils;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read of one snapshot: one input partition per (partition, bucket) split. Planning
 * happens once, on first use, and is pinned to the snapshot that was latest then, or to the one the
 * time-travel read options select.
 *
 * <p>The scan is <b>columnar</b> when every split is raw convertible (no key can occur twice, no
 * retraction: its files are read as they are) and Spark's vectorized Parquet reader handles the
 * read schema in this session; its splits are then read as {@code ColumnarBatch}es by {@link
 * VectorizedSplitReader}, deletion vectors (which keep every split of their tables raw convertible)
 * applied as a row filter on the batches. Spark cannot mix row and columnar partitions in one scan,
 * so a single merge-on-read split makes the whole scan read rows, streaming merged rows from the
 * engine. The {@link #description()} says which. Metrics: {@link ColumnarSplitsMetric} counts the
 * splits read as batches, {@link MergedSplitsMetric} those merged on read, {@link RowsMergedMetric}
 * the older versions the merges dropped and {@link DeletedRowsSkippedMetric} the rows deletion
 * vectors hid.
 *
 * <p>The read schema is the table columns followed by the {@link MetadataColumns metadata columns}
 * the query asked for; a scan asking for the file path or row index of rows that are merged on read
 * fails at planning.
 */
public final class SparkScan
    implements Scan, Batch, SupportsReportStatistics, SupportsRuntimeV2Filtering {
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

  private TableScan.Plan plan;
  private Boolean columnar;

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
  }

  private TableScan.Plan plan() {
    if (plan == null) {
      TableScan scan = table.newScan().withFilter(filter).withBucketFilter(bucketFilter);
      // time travel: VERSION/TIMESTAMP AS OF pin the table through these read options
      table.timeTravelSnapshot().ifPresent(scan::withSnapshot);
      plan = applyLimit(scan.plan());
    }
    return plan;
  }

  /**
   * Keeps only the splits a LIMIT needs when every split reads rows one to one from its files (no
   * merge, no deletion vectors, no filter), so file row counts are exact.
   */
  private TableScan.Plan applyLimit(TableScan.Plan full) {
    if (limit < 0 || filter != null) {
      return full;
    }
    List<DataSplit> kept = new ArrayList<>();
    long rows = 0;
    for (DataSplit split : full.splits()) {
      if (!split.rawConvertible() || split.hasDeletionVectors()) {
        return full;
      }
      if (rows >= limit) {
        continue;
      }
      kept.add(split);
      rows += split.rowCount();
    }
    return new TableScan.Plan(full.snapshot(), kept, full.metrics());
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
   * changes ({@value MetadataColumns#FILE_PATH} IN (...)), so only those files are rewritten.
   */
  @Override
  public NamedReference[] filterAttributes() {
    return rewrite
        ? new NamedReference[] {Expressions.column(MetadataColumns.FILE_PATH)}
        : new NamedReference[0];
  }

  @Override
  public void filter(org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    Set<String> names = null;
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
      scala.Option<Filter> converted = PredicateUtils.toV1(predicate);
      if (converted.isDefined()
          && converted.get() instanceof In in
          && in.attribute().equals(MetadataColumns.FILE_PATH)) {
        Set<String> these = new HashSet<>();
        for (Object value : in.values()) {
          these.add(new org.apache.hadoop.fs.Path(String.valueOf(value)).getName());
        }
        if (names != null) {
          these.retainAll(names);
        }
        names = these;
      }
    }
    if (names != null) {
      plan = keepFiles(plan(), names);
      columnar = null;
    }
  }

  private static TableScan.Plan keepFiles(TableScan.Plan full, Set<String> names) {
    List<DataSplit> kept = new ArrayList<>();
    for (DataSplit split : full.splits()) {
      List<DataFileMeta> files = new ArrayList<>();
      List<io.basalt.deletionvectors.DeletionFile> deletions = new ArrayList<>();
      for (int i = 0; i < split.files().size(); i++) {
        if (names.contains(split.files().get(i).fileName())) {
          files.add(split.files().get(i));
          if (!split.deletionFiles().isEmpty()) {
            deletions.add(split.deletionFile(i));
          }
        }
      }
      if (!files.isEmpty()) {
        kept.add(
            new DataSplit(
                split.snapshotId(),
                split.partition(),
                split.bucket(),
                split.totalBuckets(),
                files,
                split.rawConvertible(),
                deletions));
      }
    }
    return new TableScan.Plan(full.snapshot(), kept, full.metrics());
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    metadata.checkReadable(table, plan().splits());
    Options options = table.options();
    SplitPacker packer =
        new SplitPacker(
            options.get(ReadOptions.SPLIT_TARGET_SIZE),
            options.get(ReadOptions.SPLIT_OPEN_FILE_COST));
    return packer.pack(plan().splits()).stream()
        .map(SparkInputPartition::new)
        .toArray(InputPartition[]::new);
  }

  /** Whether this scan reads columnar batches; decided once, with the plan. */
  boolean columnar() {
    if (columnar == null) {
      List<DataSplit> splits = plan().splits();
      columnar =
          !splits.isEmpty()
              && !metadata.rowValues()
              && splits.stream().allMatch(DataSplit::rawConvertible)
              && VectorizedReadOptions.supportsColumnar(dataSchema);
    }
    return columnar;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    metadata.checkReadable(table, plan().splits());
    // the read type carries field ids: files of older schemas are resolved by id, not name
    SplitRead read = new SplitRead(table, dataSchema);
    VectorizedReadOptions options =
        columnar() ? VectorizedReadOptions.of(read.readType(), parquetFilters) : null;
    if (!columnar() && VectorizedReadOptions.supportsColumnar(table.rowType())) {
      // row reads (merges) still decode files with Spark's vectorized reader
      read.withFileOpener(
          new VectorizedFileOpener(VectorizedReadOptions.of(read.readType(), new Filter[0])));
    }
    return new SparkReaderFactory(table, read, options, metadata);
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {
      new ColumnarSplitsMetric(),
      new MergedSplitsMetric(),
      new RowsMergedMetric(),
      new DeletedRowsSkippedMetric(),
      new PlanningMetrics.FilesPlanned(),
      new PlanningMetrics.FilesSkipped(),
      new PlanningMetrics.BucketsPruned(),
      new PlanningMetrics.ManifestsSkipped()
    };
  }

  /** What planning did, shown in the SQL UI and {@code QueryExecution} metrics. */
  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    ScanMetrics metrics = plan().metrics();
    return new CustomTaskMetric[] {
      ColumnarSplitsMetric.taskValue(PlanningMetrics.FilesPlanned.NAME, metrics.filesPlanned()),
      ColumnarSplitsMetric.taskValue(PlanningMetrics.FilesSkipped.NAME, metrics.filesSkipped()),
      ColumnarSplitsMetric.taskValue(PlanningMetrics.BucketsPruned.NAME, metrics.bucketsSkipped()),
      ColumnarSplitsMetric.taskValue(
          PlanningMetrics.ManifestsSkipped.NAME, metrics.manifestsSkipped())
    };
  }

  @Override
  public Statistics estimateStatistics() {
    long rows = 0;
    long bytes = 0;
    for (DataSplit split : plan().splits()) {
      rows += split.rowCount();
      bytes += split.sizeInBytes();
    }
    long rowCount = rows;
    long size = bytes;
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(size);
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(rowCount);
      }
    };
  }

  @Override
  public String description() {
    return String.format(
        "BasaltScan(%s, columns=[%s], filters=[%s], buckets=[%s], splits=%s, columnar=%s)",
        table.name(),
        String.join(", ", readSchema.fieldNames()),
        filter == null ? "" : filter,
        bucketFilter == null ? "all" : bucketFilter,
        plan().splits().size(),
        columnar());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SparkScan other
        && table.name().equals(other.table.name())
        && table.paths().toString().equals(other.table.paths().toString())
        && readSchema.equals(other.readSchema)
        && Objects.equals(String.valueOf(filter), String.valueOf(other.filter))
        && Objects.equals(String.valueOf(bucketFilter), String.valueOf(other.bucketFilter))
        && snapshotId() == other.snapshotId();
  }

  private long snapshotId() {
    return plan().snapshot() == null ? 0 : plan().snapshot().id();
  }

  @Override
  public int hashCode() {
    return Objects.hash(table.name(), readSchema, String.valueOf(filter));
  }
}

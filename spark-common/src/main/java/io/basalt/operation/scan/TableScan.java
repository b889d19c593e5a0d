package io.basalt.operation.scan;

import io.basalt.blob.BlobColumns;
import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.format.FileFormats;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestCache;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.ParallelManifestReader;
import io.basalt.merge.MergeEngine;
import io.basalt.options.TableOptions;
import io.basalt.predicate.Predicate;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Plans a read: picks a snapshot, reads its manifests once, folds them into live files, prunes
 * partitions, buckets and files with statistics, and groups what is left into one split per
 * (partition, bucket). Single use; builder methods return {@code this}.
 */
public final class TableScan {
  private final FileStoreTable table;
  @Nullable private Long snapshotId;
  @Nullable private Snapshot pinned;
  @Nullable private Predicate filter;
  @Nullable private BinaryRow partition;
  @Nullable private Integer bucket;
  private boolean forCompaction;
  @Nullable private Predicate bucketFilter;
  private boolean fallback = true;
  @Nullable private ManifestCache manifestCache;

  /** The name bucket predicates use for the bucket id (Paimon's metadata column). */
  public static final String BUCKET_COLUMN = "__paimon_bucket";

  /** The bucket id of Paimon's postponed-bucket files ({@code 'bucket' = '-2'}). */
  public static final int POSTPONED_BUCKET = -2;

  public TableScan(FileStoreTable table) {
    this.table = table;
  }

  /** Reads snapshot {@code id} instead of the latest. */
  public TableScan withSnapshot(long id) {
    this.snapshotId = id;
    return this;
  }

  /**
   * Reads {@code snapshot} instead of the latest, even when its snapshot file is gone (a tag keeps
   * an expired snapshot's files alive).
   */
  public TableScan withSnapshot(Snapshot snapshot) {
    this.pinned = snapshot;
    return this;
  }

  /**
   * Prunes with {@code predicate}. Its conjuncts over partition columns only are applied exactly:
   * the plan holds exactly the partitions they select (see {@link #enforcesExactly}). Other rows
   * that do not match may still be returned.
   */
  public TableScan withFilter(@Nullable Predicate predicate) {
    this.filter = predicate;
    return this;
  }

  /**
   * Whether a plan filtered with {@code predicate} (one conjunct of a filter) returns only rows
   * that satisfy it, so no reader needs to check it again: true when it reads partition columns
   * only, which planning tests exactly against each partition's values.
   */
  public static boolean enforcesExactly(Predicate predicate, TableSchema schema) {
    return !predicate.columns().isEmpty()
        && schema.partitionKeys().containsAll(predicate.columns());
  }

  /** Reads only the partition with these exact values. */
  public TableScan withPartition(BinaryRow exactPartition) {
    this.partition = exactPartition;
    return this;
  }

  /**
   * Plans every live file, level 0 included, without deletion vectors: the input of a compaction
   * job rather than of a read.
   */
  public TableScan forCompaction() {
    this.forCompaction = true;
    return this;
  }

  /**
   * Reads only the buckets whose id satisfies {@code predicate}, a predicate over the single
   * integer column {@link #BUCKET_COLUMN}; exact, so it needs no re-check after the scan.
   */
  public TableScan withBucketFilter(@Nullable Predicate predicate) {
    this.bucketFilter = predicate;
    return this;
  }

  /** Reads only bucket {@code id}. */
  public TableScan withBucket(int id) {
    this.bucket = id;
    return this;
  }

  /**
   * Keeps decoded manifests in {@code cache} and takes them from there (null: decode every time).
   * Planning reads the same manifests again and again, and they never change.
   */
  public TableScan withManifestCache(@Nullable ManifestCache cache) {
    this.manifestCache = cache;
    return this;
  }

  /**
   * Uses the JVM's manifest cache as the table's {@code cache-enabled} and {@code
   * cache.manifest.max-memory} say: for planning on the driver, which plans every query.
   */
  public TableScan withDriverManifestCache() {
    return withManifestCache(ManifestReading.driverCache(table.options()));
  }

  /** Plans this branch only, ignoring {@code scan.fallback-branch}. */
  TableScan withoutFallback() {
    this.fallback = false;
    return this;
  }

  /**
   * The planned splits of the chosen snapshot, with what planning skipped; with {@code
   * scan.fallback-branch} set (and not for compaction), also the fallback branch's splits of the
   * partitions this branch does not have.
   */
  public Plan plan() {
    Plan plan = planThisBranch();
    if (forCompaction || !fallback) {
      return plan;
    }
    return table
        .fallbackBranch()
        .map(
            other ->
                FallbackBranchPlanner.merge(
                    table, other, plan, filter, bucketFilter, manifestCache))
        .orElse(plan);
  }

  private Plan planThisBranch() {
    FileFormats.checkReadable(table.options(), table.name());
    Optional<Snapshot> snapshot =
        pinned != null
            ? Optional.of(pinned)
            : snapshotId == null
                ? table.latestSnapshot()
                : Optional.of(table.snapshotManager().snapshot(snapshotId));
    if (snapshot.isEmpty()) {
      return new Plan(null, List.of(), new ScanMetrics(0, 0, 0, 0, 0, 0));
    }
    return new Planner(snapshot.get()).run();
  }

  /** The live files of the chosen snapshot that pass partition and bucket pruning. */
  public List<ManifestEntry> liveEntries(Snapshot snapshot) {
    return new Planner(snapshot).readLiveEntries();
  }

  /** The result of planning. */
  public record Plan(@Nullable Snapshot snapshot, List<DataSplit> splits, ScanMetrics metrics) {}

  private final class Planner {
    private final Snapshot snapshot;
    private final TableSchema schema = table.schema();
    private final ScanFilters filters = ScanFilters.split(filter, schema);
    private final PartitionBucketPruner pruner =
        new PartitionBucketPruner(table, filter, filters, partition, bucket, bucketFilter);
    private long manifestsRead;
    private long manifestsFromCache;
    private long manifestsSkipped;

    Planner(Snapshot snapshot) {
      this.snapshot = snapshot;
    }

    Plan run() {
      List<ManifestEntry> entries = readLiveEntries();
      Map<List<Object>, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
      for (ManifestEntry entry : entries) {
        byBucket
            .computeIfAbsent(List.of(entry.partition(), entry.bucket()), k -> new ArrayList<>())
            .add(entry);
      }
      boolean deletionVectors =
          !forCompaction
              && table.hasPrimaryKey()
              && table.options().get(TableOptions.DELETION_VECTORS_ENABLED);
      // as in Paimon, level-0 rows of first-row tables are not visible until a lookup moves them
      boolean hideLevel0 =
          deletionVectors
              || (!forCompaction && table.hasPrimaryKey() && MergeEngine.of(table).hidesLevel0());
      FileFilter fileFilter = new FileFilter(table, filters, deletionVectors);
      boolean blobTable = !BlobColumns.of(table.rowType(), table.options()).isEmpty();
      Map<String, DeletionFile> deletionFiles =
          deletionVectors ? deletionFiles(snapshot) : Map.of();
      List<DataSplit> splits = new ArrayList<>();
      for (List<ManifestEntry> group : byBucket.values()) {
        boolean postponed = group.get(0).bucket() == POSTPONED_BUCKET;
        if (postponed && !forCompaction) {
          // Paimon's postponed-bucket files wait for a compaction to pick their real bucket; no
          // read sees them before that (they may not even be Parquet: the compaction checks)
          continue;
        }
        if (hideLevel0) {
          // level-0 rows are not visible yet: a compaction (in the writer or a job) moves them up
          group = group.stream().filter(e -> e.file().level() > 0).toList();
        }
        for (ManifestEntry entry : postponed ? List.<ManifestEntry>of() : group) {
          if (!BlobColumns.isBlobFile(entry.file().fileName())) {
            FileFormats.checkDataFile(entry.file().fileName(), table.name());
          }
        }
        List<DataFileMeta> files = group.isEmpty() ? List.of() : fileFilter.select(group);
        if (blobTable) {
          files = BlobColumns.arrange(files);
        }
        if (!files.isEmpty()) {
          ManifestEntry first = group.get(0);
          List<DeletionFile> deletions = new ArrayList<>();
          for (DataFileMeta file : files) {
            deletions.add(deletionFiles.get(deletionKey(first, file.fileName())));
          }
          splits.add(
              new DataSplit(
                  snapshot.id(),
                  first.partition(),
                  first.bucket(),
                  first.totalBuckets(),
                  files,
                  deletionVectors || rawConvertible(files),
                  deletionVectors ? deletions : List.of()));
        }
      }
      ScanMetrics metrics =
          new ScanMetrics(
              manifestsRead,
              manifestsFromCache,
              manifestsSkipped,
              fileFilter.planned(),
              fileFilter.skipped(),
              fileFilter.bucketsSkipped() + pruner.prunedBuckets());
      return new Plan(snapshot, splits, metrics);
    }

    /** The deletion file of every data file with deleted rows, by {@link #deletionKey}. */
    private Map<String, DeletionFile> deletionFiles(Snapshot snapshot) {
      Map<String, DeletionFile> files = new HashMap<>();
      for (IndexManifestEntry entry :
          new IndexManifests(table.fileIO(), table.paths()).read(snapshot.indexManifest())) {
        IndexFileMeta index = entry.indexFile();
        if (index.dvRanges() == null) {
          continue;
        }
        for (DeletionVectorMeta range : index.dvRanges().values()) {
          files.put(
              entry.partition() + "/" + entry.bucket() + "/" + range.dataFileName(),
              new DeletionFile(
                  index.fileName(), range.offset(), range.length(), range.cardinality()));
        }
      }
      return files;
    }

    private String deletionKey(ManifestEntry entry, String fileName) {
      return entry.partition() + "/" + entry.bucket() + "/" + fileName;
    }

    /**
     * A primary-key split reads without merging when its files form one sorted run (one file, or
     * all files in the same level above 0) and hold no retractions.
     */
    private boolean rawConvertible(List<DataFileMeta> files) {
      if (!table.hasPrimaryKey()) {
        return true;
      }
      int level = files.get(0).level();
      for (DataFileMeta file : files) {
        boolean oneRun = files.size() == 1 || (level > 0 && file.level() == level);
        if (!oneRun || file.deleteRowCount() == null || file.deleteRowCount() != 0) {
          return false;
        }
      }
      return true;
    }

    List<ManifestEntry> readLiveEntries() {
      ManifestFiles manifests = table.manifestFiles();
      String context = "snapshot " + snapshot.id() + " of table " + table.name();
      LiveFiles live = new LiveFiles(context);
      List<ManifestFileMeta> metas =
          new ArrayList<>(
              manifests.readManifestList(snapshot.baseManifestList(), context, manifestCache));
      metas.addAll(
          manifests.readManifestList(snapshot.deltaManifestList(), context, manifestCache));
      List<String> toRead = new ArrayList<>();
      for (ManifestFileMeta meta : metas) {
        if (pruner.manifestMayMatch(meta)) {
          toRead.add(meta.fileName());
        } else {
          manifestsSkipped++;
        }
      }
      ParallelManifestReader reader =
          new ParallelManifestReader(
              manifests, context, ManifestReading.parallelism(table.options()), manifestCache);
      // the pruner and the fold run on this thread, in manifest order
      reader.read(
          toRead,
          entry -> {
            if (pruner.entryMatches(entry)) {
              live.apply(entry);
            }
          });
      manifestsRead += reader.fromStorage();
      manifestsFromCache += reader.fromCache();
      return live.entries();
    }
  }
}

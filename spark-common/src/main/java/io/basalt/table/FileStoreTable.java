package io.basalt.table;

import io.basalt.BasaltException;
import io.basalt.branch.BranchManager;
import io.basalt.changelog.ChangelogManager;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.format.ManifestFormat;
import io.basalt.fs.DataFilePaths;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.fs.lock.LockingFileIO;
import io.basalt.manifest.ManifestFiles;
import io.basalt.operation.commit.FileStoreCommit;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.scan.TableScan;
import io.basalt.operation.write.TableWrite;
import io.basalt.options.ManifestOptions;
import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.SchemaManager;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.snapshot.TagManager;
import io.basalt.snapshot.TimeTravel;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A handle on one table: its files, its schema and its options (table options overridden by the
 * options given for one read or write). The engine API the Spark layer calls: it creates scans,
 * writes, commits and readers. Serializable, so Spark tasks can carry it.
 *
 * @since 0.1
 */
public final class FileStoreTable implements Serializable {
  private static final long serialVersionUID = 1L;

  private final FileIO fileIO;
  private final TablePaths paths;
  private final String name;
  private final TableSchema schema;
  private final Map<String, String> dynamicOptions;

  private FileStoreTable(
      FileIO fileIO,
      TablePaths paths,
      String name,
      TableSchema schema,
      Map<String, String> dynamic) {
    this.paths = paths;
    this.name = name;
    this.schema = schema;
    this.dynamicOptions = Map.copyOf(dynamic);
    // snapshots, schemas and tags are created through the commit lock on stores that need one
    this.fileIO = LockingFileIO.wrap(fileIO, options().toMap(), paths.root(), name);
  }

  /**
   * Loads the table at {@code root} with its latest schema.
   *
   * @param name the table's name for messages, e.g. {@code db.t}
   * @throws TableNotFoundException when no schema exists there
   */
  public static FileStoreTable load(FileIO fileIO, Path root, String name) {
    TablePaths paths = new TablePaths(root);
    TableSchema schema =
        new SchemaManager(fileIO, paths)
            .latest()
            .orElseThrow(() -> new TableNotFoundException(name, root));
    return new FileStoreTable(fileIO, paths, name, schema, Map.of());
  }

  /**
   * Creates a table at {@code root} with {@code schema} as schema 0.
   *
   * @throws BasaltException when a table already exists there
   */
  public static FileStoreTable create(FileIO fileIO, Path root, String name, TableSchema schema) {
    TablePaths paths = new TablePaths(root);
    FileIO locking = LockingFileIO.wrap(fileIO, schema.options(), root, name);
    SchemaManager schemas = new SchemaManager(locking, paths);
    if (schemas.latest().isPresent() || !schemas.tryCommit(schema)) {
      throw new BasaltException("Table " + name + " already exists at " + root);
    }
    return new FileStoreTable(fileIO, paths, name, schema, Map.of());
  }

  /** The branch a table name selects after {@link #BRANCH_MARKER}: {@code t$branch_<name>}. */
  public static final String BRANCH_MARKER = "$branch_";

  /**
   * This table seen through branch {@code branch}, with the branch's latest schema; {@link
   * TablePaths#MAIN_BRANCH} is the table itself. Its name is {@code <table>$branch_<branch>}.
   *
   * @throws BasaltException naming the existing branches when the branch does not exist
   */
  public FileStoreTable switchToBranch(String branch) {
    branchManager().checkExists(branch);
    TablePaths branchPaths = paths.withBranch(branch);
    String base = baseName();
    String branchName = branchPaths.isMainBranch() ? base : base + BRANCH_MARKER + branch;
    TableSchema branchSchema =
        new SchemaManager(fileIO, branchPaths)
            .latest()
            .orElseThrow(
                () ->
                    new BasaltException(
                        String.format(
                            "Branch '%s' of table %s has no schema file under %s; it is damaged."
                                + " Fix: delete the branch and create it again.",
                            branch, base, branchPaths.schemaDir())));
    return new FileStoreTable(fileIO, branchPaths, branchName, branchSchema, dynamicOptions);
  }

  /**
   * The branch {@code scan.fallback-branch} names, seen with this table's dynamic options: a read
   * takes the partitions this branch does not have from it (Paimon's fallback read). Empty when the
   * option is unset or names this branch.
   *
   * @throws BasaltException when the branch does not exist or has other columns than this table
   */
  public Optional<FileStoreTable> fallbackBranch() {
    Optional<String> fallback =
        options().getOptional(ReadOptions.SCAN_FALLBACK_BRANCH).filter(b -> !b.isBlank());
    if (fallback.isEmpty() || fallback.get().equals(branch())) {
      return Optional.empty();
    }
    String key = ReadOptions.SCAN_FALLBACK_BRANCH.key();
    FileStoreTable other;
    try {
      other = switchToBranch(fallback.get());
    } catch (BasaltException e) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' of table %s: %s", key, fallback.get(), name, e.getMessage()),
          e);
    }
    if (!sameColumns(schema, other.schema())) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' of table %s: the fallback branch must have the same columns as"
                  + " branch %s, but it has %s where %s has %s. Fix: give both branches the same"
                  + " columns, or unset '%s'.",
              key,
              fallback.get(),
              name,
              branch(),
              other.rowType().simpleString(),
              branch(),
              rowType().simpleString(),
              key));
    }
    return Optional.of(other);
  }

  /** Same column ids, names and types in the same order; the columns' nullability may differ. */
  public static boolean sameColumns(TableSchema a, TableSchema b) {
    if (a.fields().size() != b.fields().size()) {
      return false;
    }
    for (int i = 0; i < a.fields().size(); i++) {
      DataField x = a.fields().get(i);
      DataField y = b.fields().get(i);
      if (x.id() != y.id() || !x.name().equals(y.name()) || !x.type().equals(y.type())) {
        return false;
      }
    }
    return true;
  }

  /** The branch this handle reads and writes ({@link TablePaths#MAIN_BRANCH} by default). */
  public String branch() {
    return paths.branch();
  }

  /** The table's name without a {@code $branch_<name>} suffix. */
  public String baseName() {
    int marker = name.indexOf(BRANCH_MARKER);
    return paths.isMainBranch() || marker < 0 ? name : name.substring(0, marker);
  }

  /** The table's branches; names in its messages are the table's base name. */
  public BranchManager branchManager() {
    return new BranchManager(fileIO, paths, baseName());
  }

  /** A copy whose options are overridden by {@code options} (read or write options). */
  public FileStoreTable copyWithOptions(Map<String, String> options) {
    Map<String, String> merged = new HashMap<>(dynamicOptions);
    merged.putAll(options);
    return new FileStoreTable(fileIO, paths, name, schema, merged);
  }

  /** A copy using {@code newSchema} (after a schema change). */
  public FileStoreTable copyWithSchema(TableSchema newSchema) {
    return new FileStoreTable(fileIO, paths, name, newSchema, dynamicOptions);
  }

  public String name() {
    return name;
  }

  public FileIO fileIO() {
    return fileIO;
  }

  public TablePaths paths() {
    return paths;
  }

  public TableSchema schema() {
    return schema;
  }

  /** The effective options: table options, then the dynamic ones on top. */
  public Options options() {
    Map<String, String> merged = new HashMap<>(schema.options());
    merged.putAll(dynamicOptions);
    return new Options(merged, "table " + name);
  }

  public boolean hasPrimaryKey() {
    return schema.hasPrimaryKey();
  }

  /** The configured bucket count ({@code bucket}); -1 for bucket-unaware append tables. */
  public int bucketCount() {
    return options().get(TableOptions.BUCKET);
  }

  /** The columns hashed to choose a bucket. */
  public List<String> bucketKeys() {
    Optional<String> configured = options().getOptional(TableOptions.BUCKET_KEY);
    if (configured.isPresent()) {
      List<String> keys = new ArrayList<>();
      for (String key : configured.get().split(",")) {
        keys.add(key.trim());
      }
      return keys;
    }
    return schema.trimmedPrimaryKeys();
  }

  public StructType rowType() {
    return schema.rowType();
  }

  /** The partition columns as a schema, in partition-key order. */
  public StructType partitionType() {
    List<StructField> fields = new ArrayList<>();
    for (DataField field : schema.fields(schema.partitionKeys())) {
      fields.add(field.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  /** Where the data files of each (partition, bucket) live. */
  public DataFilePaths dataFilePaths() {
    return new DataFilePaths(
        paths, partitionType(), options().get(TableOptions.PARTITION_DEFAULT_NAME));
  }

  public SnapshotManager snapshotManager() {
    return new SnapshotManager(fileIO, paths);
  }

  /** The decoupled changelogs of this branch ({@code changelog/changelog-<id>}). */
  public ChangelogManager changelogManager() {
    return new ChangelogManager(fileIO, paths);
  }

  /** The table's tags ({@code tag/tag-<name>}). */
  public TagManager tagManager() {
    return new TagManager(fileIO, paths, name);
  }

  /** Resolves time-travel requests (versions, timestamps, tags, read options) to snapshots. */
  public TimeTravel timeTravel() {
    return new TimeTravel(snapshotManager(), tagManager(), name);
  }

  /**
   * The snapshot this table's time-travel options ({@code scan.snapshot-id}, {@code scan.tag-name},
   * {@code scan.timestamp-millis}, {@code scan.watermark}) select, or empty to read the latest.
   */
  public Optional<Snapshot> timeTravelSnapshot() {
    return timeTravel().fromOptions(options());
  }

  public SchemaManager schemaManager() {
    return new SchemaManager(fileIO, paths);
  }

  public Optional<Snapshot> latestSnapshot() {
    return snapshotManager().latestSnapshot();
  }

  public ManifestFiles manifestFiles() {
    return new ManifestFiles(
        fileIO,
        paths,
        partitionType(),
        options().get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE),
        ManifestFormat.of(options(), name()),
        options().get(ManifestOptions.MANIFEST_COMPRESSION));
  }

  /** A new scan builder over the latest snapshot unless told otherwise. */
  public TableScan newScan() {
    return new TableScan(this);
  }

  /** A reader of splits, producing rows of {@code readType} (a subset of the table columns). */
  public SplitRead newRead(StructType readType) {
    return new SplitRead(this, readType);
  }

  /**
   * A writer for one task.
   *
   * @param baseSnapshotId the snapshot the write is based on (sequence numbers and bucket counts
   *     continue from it), or null for an empty table
   * @param overwrite whether the written partitions replace their old contents (then they take the
   *     current bucket count)
   */
  public TableWrite newWrite(Long baseSnapshotId, boolean overwrite) {
    checkWritable();
    return new TableWrite(this, baseSnapshotId, overwrite);
  }

  /**
   * Like {@link #newWrite(Long, boolean)}; on a postponed-bucket table ({@code 'bucket' = '-2'}),
   * {@code fixedBuckets} writes rows straight into each partition's numbered buckets, where reads
   * see them at commit, instead of into {@code bucket-postpone}.
   */
  public TableWrite newWrite(Long baseSnapshotId, boolean overwrite, boolean fixedBuckets) {
    return newWrite(baseSnapshotId, overwrite, false, fixedBuckets);
  }

  /**
   * Like {@link #newWrite(Long, boolean, boolean)}; {@code trackedRows} says the rows carry {@code
   * _ROW_ID} and {@code _SEQUENCE_NUMBER} after the table columns (a rewrite of a row-tracking
   * table), which the files then store.
   */
  public TableWrite newWrite(
      Long baseSnapshotId, boolean overwrite, boolean trackedRows, boolean fixedBuckets) {
    checkWritable();
    return new TableWrite(this, baseSnapshotId, overwrite, trackedRows, fixedBuckets);
  }

  /**
   * Refuses early, before any file is written, a write this engine cannot do correctly: to a table
   * that asks for a changelog.
   */
  public void checkWritable() {
    ChangelogProducerGuard.checkWritable(schema().options(), name, "write to");
  }

  /** A committer; {@code commitUser} identifies the writer for idempotent retries. */
  public FileStoreCommit newCommit(String commitUser) {
    ChangelogProducerGuard.checkWritable(schema().options(), name, "commit to");
    return new FileStoreCommit(this, commitUser);
  }

  @Override
  public String toString() {
    return "FileStoreTable("
        + name
        + " at "
        + paths
        + ", options "
        + Arrays.asList(dynamicOptions)
        + ")";
  }
}

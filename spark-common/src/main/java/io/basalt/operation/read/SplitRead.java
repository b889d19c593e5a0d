package io.basalt.operation.read;

import io.basalt.BasaltException;
import io.basalt.blob.BlobColumns;
import io.basalt.casting.CastedRow;
import io.basalt.changelog.LookupProducer;
import io.basalt.data.ProjectedRow;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.format.DataFileFormat;
import io.basalt.format.ParquetRowReader;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.merge.MergeFunction;
import io.basalt.mergetree.IntervalPartition;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SectionedMerge;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.mergetree.compact.Levels;
import io.basalt.schema.DataField;
import io.basalt.schema.FileReadType;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the rows of a split as table rows restricted to a read schema. Append files and
 * raw-convertible splits are read file after file; other primary-key splits are merged by {@link
 * MergeIterator}, one key-range section of the bucket at a time ({@link IntervalPartition}). Rows
 * are reused between calls.
 */
public final class SplitRead implements Serializable {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  private final StructType readType;
  private final DataFilePaths dataPaths;
  private final List<String> blobColumns;
  private FileOpener opener = FileOpener.PARQUET_ROWS;
  @Nullable private UnreadableFiles unreadable;
  // the row types of the older schemas files were written with, by schema id
  private transient Map<Long, StructType> olderSchemas;

  /**
   * Decodes one data file into rows of a schema (a subset of the file's columns, matched by field
   * id or name), every row in file order: deletion vectors count positions on top of it. The
   * engine's own is a row-by-row Parquet reader; the Spark layer plugs in a vectorized one.
   */
  public interface FileOpener extends Serializable {
    /** The engine's row-by-row Parquet reader. */
    FileOpener PARQUET_ROWS =
        (conf, path, schema) -> ParquetRowReader.open(conf, path, schema, null);

    CloseableIterator<InternalRow> open(
        org.apache.hadoop.conf.Configuration conf, Path path, StructType schema);
  }

  /**
   * @param readType table columns to produce (each carrying its field id), in output order
   */
  public SplitRead(FileStoreTable table, StructType readType) {
    this.table = table;
    this.readType = withFieldIds(table, readType);
    this.dataPaths = table.dataFilePaths();
    this.blobColumns = BlobColumns.of(table.rowType(), table.options());
  }

  private static StructType withFieldIds(FileStoreTable table, StructType readType) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : readType.fields()) {
      DataField column = table.schema().field(field.name());
      fields.add(column == null ? field : column.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  /** Decodes files with {@code fileOpener} instead of the engine's row reader; returns this. */
  public SplitRead withFileOpener(FileOpener fileOpener) {
    this.opener = fileOpener;
    return this;
  }

  public StructType readType() {
    return readType;
  }

  /**
   * Makes this read skip the data files that {@code scan.ignore-corrupt-files} and {@code
   * scan.ignore-lost-files} allow skipping; for queries only, never for compaction. Returns this.
   */
  public SplitRead skippingUnreadableFiles() {
    this.unreadable = UnreadableFiles.of(table).orElse(null);
    return this;
  }

  /** What this read may skip, or empty when every unreadable file fails it. */
  public Optional<UnreadableFiles> unreadableFiles() {
    return Optional.ofNullable(unreadable);
  }

  /** The rows of {@code split}; close the iterator when done. */
  public CloseableIterator<InternalRow> read(DataSplit split) {
    if (!table.hasPrimaryKey() || split.rawConvertible()) {
      Map<String, DeletionFile> deletionFiles = new HashMap<>();
      for (int i = 0; i < split.files().size(); i++) {
        if (split.deletionFile(i) != null) {
          deletionFiles.put(split.files().get(i).fileName(), split.deletionFile(i));
        }
      }
      return new ConcatIterator(
          dataFiles(split),
          file -> open(split, file, readType, loadDeletionVector(file, deletionFiles)));
    }
    SectionedMerge merged = readKeyValues(split, false);
    DataType[] types = new DataType[readType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = readType.fields()[i].dataType();
    }
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    return new MergedRows(merged, ProjectedRow.offset(types, layout.valueOffset()));
  }

  /**
   * The key-value rows of a primary-key split ({@link KeyValueLayout}), merged per key by the
   * table's merge engine, in key order, deletion vectors applied. The value columns start with
   * {@link #readType()}'s, in order; columns the merge needs follow them.
   *
   * @param emitRetractions whether a key whose merged version is a retraction (-U/-D) yields it
   *     (change reads) or disappears (snapshot reads)
   */
  public SectionedMerge readKeyValues(DataSplit split, boolean emitRetractions) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    SequenceOrder sequence = SequenceOrder.of(table.schema(), table.options(), table.name());
    MergeEngine mergeEngine = MergeEngine.of(table);
    List<DataField> values = new ArrayList<>();
    for (StructField field : readType.fields()) {
      values.add(table.schema().field(field.name()));
    }
    // the merge may need columns the query does not select (sequence groups)
    values = mergeEngine.withMergeColumns(values);
    // sequence fields decide the merge even when the query does not select them
    for (String name : sequence.fields()) {
      if (values.stream().noneMatch(v -> v.name().equals(name))) {
        values.add(table.schema().field(name));
      }
    }
    StructType kvType = layout.schemaWithValues(values);
    Map<String, DeletionFile> deletionFiles = new HashMap<>();
    for (int i = 0; i < split.files().size(); i++) {
      if (split.deletionFile(i) != null) {
        deletionFiles.put(split.files().get(i).fileName(), split.deletionFile(i));
      }
    }
    Map<String, DataFileMeta> byName = new HashMap<>();
    for (DataFileMeta file : split.files()) {
      byName.put(file.fileName(), file);
    }
    Function<String, DeletionVector> deletionVectors =
        name -> loadDeletionVector(byName.get(name), deletionFiles);
    Comparator<InternalRow> versionOrder = sequence.comparator(layout, values);
    // sections merge one after another, so they share one merge function
    MergeFunction mergeFunction = mergeEngine.newMergeFunction(layout, values);
    List<Supplier<MergeIterator>> sections = new ArrayList<>();
    for (List<LevelSortedRun> section :
        IntervalPartition.sections(sortedRuns(split, layout), layout.keyType())) {
      // each section's merge opens its runs and closes them all if one fails to open
      sections.add(
          () ->
              new MergeIterator(
                  openRuns(split, section, kvType, deletionVectors),
                  layout,
                  versionOrder,
                  mergeFunction,
                  emitRetractions,
                  mergedRuns(section)));
    }
    return new SectionedMerge(sections);
  }

  /**
   * The rows of a split that needs merging, as {@link #read(DataSplit)} returns them; {@link
   * #mergedRows()} counts the older versions the merge dropped so far.
   */
  public static final class MergedRows implements CloseableIterator<InternalRow> {
    private final SectionedMerge merged;
    private final ProjectedRow view;

    private MergedRows(SectionedMerge merged, ProjectedRow view) {
      this.merged = merged;
      this.view = view;
    }

    /** See {@link SectionedMerge#mergedRows()}. */
    public long mergedRows() {
      return merged.mergedRows();
    }

    @Override
    public boolean hasNext() {
      return merged.hasNext();
    }

    @Override
    public InternalRow next() {
      return view.replace(merged.next());
    }

    @Override
    public void close() {
      merged.close();
    }
  }

  /**
   * Opens the sorted runs of a bucket's files, each as one stream of key-value rows of {@code
   * kvType}: a level-0 file alone, a higher level's files one after another in key order.
   */
  public List<CloseableIterator<InternalRow>> openRuns(
      DataSplit split, KeyValueLayout layout, StructType kvType) {
    return openRuns(split, layout, kvType, file -> null);
  }

  /**
   * Like {@link #openRuns(DataSplit, KeyValueLayout, StructType)}, skipping the rows that {@code
   * deletionVectors} (by data file name; null for none) mark deleted.
   */
  public List<CloseableIterator<InternalRow>> openRuns(
      DataSplit split,
      KeyValueLayout layout,
      StructType kvType,
      Function<String, DeletionVector> deletionVectors) {
    return openRuns(split, sortedRuns(split, layout), kvType, deletionVectors);
  }

  private List<CloseableIterator<InternalRow>> openRuns(
      DataSplit split,
      List<LevelSortedRun> sortedRuns,
      StructType kvType,
      Function<String, DeletionVector> deletionVectors) {
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>();
    for (LevelSortedRun run : sortedRuns) {
      runs.add(
          new ConcatIterator(
              run.run().files(),
              file -> open(split, file, kvType, deletionVectors.apply(file.fileName()))));
    }
    return runs;
  }

  private static List<LevelSortedRun> sortedRuns(DataSplit split, KeyValueLayout layout) {
    int maxLevel = 1;
    for (DataFileMeta file : split.files()) {
      maxLevel = Math.max(maxLevel, file.level());
    }
    return new Levels(layout.keyType(), maxLevel + 1, split.files()).sortedRuns();
  }

  /**
   * For each run {@link #openRuns} opens, whether its rows are whole merged values that replace
   * older versions: the levels above 0 of a table with the {@code lookup} changelog producer.
   */
  public boolean[] mergedRuns(DataSplit split, KeyValueLayout layout) {
    return mergedRuns(sortedRuns(split, layout));
  }

  private boolean[] mergedRuns(List<LevelSortedRun> runs) {
    boolean[] merged = new boolean[runs.size()];
    if (LookupProducer.enabled(table.options())) {
      for (int i = 0; i < merged.length; i++) {
        merged[i] = runs.get(i).level() > 0;
      }
    }
    return merged;
  }

  /** The full path of {@code file} of {@code split}. */
  public Path path(DataSplit split, DataFileMeta file) {
    return new Path(dataPaths.bucketDir(split.partition(), split.bucket()), file.fileName());
  }

  /**
   * The files of {@code split} that hold rows: all but {@code .blob} files, which {@link #open}
   * reads together with their data file.
   */
  public List<DataFileMeta> dataFiles(DataSplit split) {
    if (blobColumns.isEmpty()) {
      return split.files();
    }
    return split.files().stream().filter(f -> !BlobColumns.isBlobFile(f.fileName())).toList();
  }

  /**
   * Opens one data file of {@code split}, skipping the rows {@code deleted} marks. On a table with
   * BLOB columns, those of {@code schema} are read from the split's blob files of {@code file}.
   */
  public CloseableIterator<InternalRow> open(
      DataSplit split, DataFileMeta file, StructType schema, @Nullable DeletionVector deleted) {
    CloseableIterator<InternalRow> rows =
        blobColumns.isEmpty()
            ? openFile(split, file, schema)
            : BlobJoinedRows.open(
                schema,
                blobColumns,
                file,
                split.files(),
                blob -> path(split, blob),
                table.fileIO().conf(),
                dataSchema -> openFile(split, file, dataSchema));
    return deleted == null || deleted.isEmpty() ? rows : new DeletedRowsFilter(rows, deleted);
  }

  private CloseableIterator<InternalRow> openFile(
      DataSplit split, DataFileMeta file, StructType schema) {
    Path path = path(split, file);
    // a file of an older schema is read with the types its columns had then, and converted
    StructType fileType = fileReadType(file, schema);
    CloseableIterator<InternalRow> rows;
    try {
      // the opener (maybe Spark's vectorized reader) decodes Parquet; ORC and Avro files, which a
      // table has after 'file.format' changed or when Paimon wrote them, use the engine's readers
      DataFileFormat format =
          DataFileFormat.ofFileName(file.fileName()).orElse(DataFileFormat.PARQUET);
      rows =
          format == DataFileFormat.PARQUET
              ? opener.open(table.fileIO().conf(), path, fileType)
              : format.openRows(table.fileIO().conf(), path, fileType);
    } catch (RuntimeException e) {
      if (unreadable != null && unreadable.skip(table.fileIO(), path, e)) {
        return CloseableIterator.of(List.of());
      }
      throw dataFileError(split, path, e);
    }
    if (unreadable != null) {
      rows = unreadable.tolerant(rows, table.fileIO(), path);
    }
    if (fileType != schema) {
      rows =
          CastedRow.wrap(
              rows, fileType, schema, "Data file " + path + " of table " + table.name() + ".");
    }
    return rows;
  }

  /** {@code schema} with the column types {@code file} was written with (itself if the same). */
  private StructType fileReadType(DataFileMeta file, StructType schema) {
    if (file.schemaId() == table.schema().id()) {
      return schema;
    }
    if (olderSchemas == null) {
      olderSchemas = new HashMap<>();
    }
    StructType written =
        olderSchemas.computeIfAbsent(
            file.schemaId(), id -> table.schemaManager().schema(id).rowType());
    return FileReadType.of(schema, written);
  }

  /** An error opening a data file, naming the file, the snapshot and the fix. */
  private BasaltException dataFileError(DataSplit split, Path path, RuntimeException e) {
    String where = " of snapshot " + split.snapshotId() + " of table " + table.name();
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.FileNotFoundException) {
        return new BasaltException(
            "Data file "
                + path
                + where
                + " does not exist. The table's files are damaged: restore the file from a"
                + " backup, or read an older snapshot with VERSION AS OF <id> (CALL sys.rollback"
                + " moves the table back to it).",
            e);
      }
    }
    return new BasaltException(
        "Failed to open data file " + path + where + ": " + e.getMessage(), e);
  }

  @Nullable
  private DeletionVector loadDeletionVector(DataFileMeta file, Map<String, DeletionFile> files) {
    DeletionFile deletion = files.get(file.fileName());
    if (deletion == null) {
      return null;
    }
    return indexFiles()
        .read(
            deletion.indexFileName(),
            new DeletionVectorMeta(
                file.fileName(),
                Math.toIntExact(deletion.offset()),
                Math.toIntExact(deletion.length()),
                deletion.cardinality()));
  }

  private DeletionVectorIndexFile indexFiles() {
    return new DeletionVectorIndexFile(
        table.fileIO(),
        new IndexFilePaths(table.paths()),
        BucketDeletionVectors.ONE_FILE_PER_BUCKET);
  }
}

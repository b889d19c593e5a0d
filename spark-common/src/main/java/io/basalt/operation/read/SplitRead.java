package io.basalt.operation.read;

import io.basalt.blob.BlobColumns;
import io.basalt.changelog.LookupProducer;
import io.basalt.data.ProjectedRow;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.deletionvectors.DeletionVectorIndexFile;
import io.basalt.format.ParquetRowReader;
import io.basalt.fs.DataFilePaths;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFilePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.mergetree.IntervalPartition;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SectionedMerge;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.mergetree.compact.Levels;
import io.basalt.schema.DataField;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.ArrayList;
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
  private final DataFileDecoder decoder;
  @Nullable private UnreadableFiles unreadable;

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
    this.decoder = new DataFileDecoder(table);
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
    return new MergedRows(readKeyValues(split, false), mergedView());
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
    List<Supplier<MergeIterator>> merges = new ArrayList<>();
    for (MergeSections.Section section :
        MergeSections.of(this, table, readType, split, emitRetractions)) {
      merges.add(section.merge());
    }
    return new SectionedMerge(merges);
  }

  /**
   * The key-range sections of a primary-key split that needs merging, in key order, each read
   * either as its files are (one sorted run whose lone versions the merge engine keeps, {@link
   * MergeEngine#keepsLoneVersion}) or merged; together the rows {@link #read(DataSplit)} returns.
   */
  public List<ReadSection> readSections(DataSplit split) {
    MergeEngine engine = MergeEngine.of(table);
    ProjectedRow view = mergedView();
    List<ReadSection> sections = new ArrayList<>();
    for (MergeSections.Section section : MergeSections.of(this, table, readType, split, false)) {
      List<LevelSortedRun> runs = section.runs();
      boolean unmerged =
          runs.size() == 1 && engine.keepsLoneVersion(ReadSection.mayHoldRetractions(runs));
      sections.add(
          new ReadSection(
              split,
              runs,
              unmerged,
              () -> new MergedRows(ReadSection.single(section.merge()), view)));
    }
    return sections;
  }

  /** The view that projects merged key-value rows to {@link #readType()}. */
  private ProjectedRow mergedView() {
    DataType[] types = new DataType[readType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = readType.fields()[i].dataType();
    }
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    return ProjectedRow.offset(types, layout.valueOffset());
  }

  /**
   * The rows of a split that needs merging, as {@link #read(DataSplit)} returns them; {@link
   * #mergedRows()} counts the older versions the merge dropped so far.
   */
  public static final class MergedRows implements CloseableIterator<InternalRow> {
    private final SectionedMerge merged;
    private final ProjectedRow view;

    MergedRows(SectionedMerge merged, ProjectedRow view) {
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

  List<CloseableIterator<InternalRow>> openRuns(
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

  static List<LevelSortedRun> sortedRuns(DataSplit split, KeyValueLayout layout) {
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

  boolean[] mergedRuns(List<LevelSortedRun> runs) {
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
    return decoder.open(split, file, path(split, file), schema, opener, unreadable);
  }

  @Nullable
  DeletionVector loadDeletionVector(DataFileMeta file, Map<String, DeletionFile> files) {
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

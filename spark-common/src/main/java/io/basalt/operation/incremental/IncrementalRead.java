package io.basalt.operation.incremental;

import io.basalt.blob.BlobColumns;
import io.basalt.data.ProjectedRow;
import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.operation.read.SplitRead;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the changes of an {@link IncrementalSplit} as rows of a read schema with their row kinds.
 * Everything streams: a delta is one k-way merge of the added files, a diff a merge join of the two
 * ends' merged buckets.
 */
public final class IncrementalRead implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Row kinds by their stored byte; {@code RowKind.values()} would copy the array per row. */
  private static final RowKind[] KINDS = RowKind.values();

  private final FileStoreTable table;
  private final StructType readType;

  /**
   * @param readType table columns to produce, in output order
   */
  public IncrementalRead(FileStoreTable table, StructType readType) {
    this.table = table;
    this.readType = readType;
  }

  /** The changes of {@code split}; close the iterator when done. */
  public ChangeIterator read(IncrementalSplit split) {
    if (!table.hasPrimaryKey()) {
      return split.diff() ? appendDiff(split) : inserts(split);
    }
    if (split.changelog()) {
      return changelog(split);
    }
    return split.diff() ? keyedDiff(split) : keyedMerge(split);
  }

  /**
   * The split's changelog files read as they are, one after another: per key, the changes in the
   * order they were committed, each with its own row kind.
   */
  private ChangeIterator changelog(IncrementalSplit split) {
    SplitRead read = table.newRead(readType);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<io.basalt.schema.DataField> values = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField field : readType.fields()) {
      values.add(table.schema().field(field.name()));
    }
    StructType kvType = layout.schemaWithValues(values);
    DataSplit files = split.after().get(0);
    List<FileChange> changes = new ArrayList<>();
    for (DataFileMeta file : files.files()) {
      changes.add(new FileChange(files, file, null));
    }
    return changesOf(new FileChanges(changes, read, kvType), layout);
  }

  private DataType[] types() {
    DataType[] types = new DataType[readType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = readType.fields()[i].dataType();
    }
    return types;
  }

  /** The split's files merged per key, retractions kept. */
  private ChangeIterator keyedMerge(IncrementalSplit split) {
    SplitRead read = table.newRead(readType);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    return changesOf(read.readKeyValues(split.after().get(0), true), layout);
  }

  /** Key-value rows as changes: each row's kind from its kind column, the table columns as it. */
  private ChangeIterator changesOf(CloseableIterator<InternalRow> rows, KeyValueLayout layout) {
    ProjectedRow view = ProjectedRow.offset(types(), layout.valueOffset());
    int kindIndex = layout.kindIndex();
    return new ChangeIterator() {
      private RowKind kind;

      @Override
      public RowKind kind() {
        return kind;
      }

      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public InternalRow next() {
        InternalRow row = rows.next();
        kind = KINDS[row.getByte(kindIndex)];
        return view.replace(row);
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }

  /** The two ends compared per key; every table column takes part in the comparison. */
  private ChangeIterator keyedDiff(IncrementalSplit split) {
    StructType rowType = table.rowType();
    SplitRead read = table.newRead(rowType);
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    DiffIterator diff =
        new DiffIterator(
            sorted(read, split.before(), layout),
            sorted(read, split.after(), layout),
            layout,
            read.readType());
    int[] indices = new int[readType.size()];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = layout.valueOffset() + rowType.fieldIndex(readType.fields()[i].name());
    }
    ProjectedRow view = new ProjectedRow(types(), indices);
    return new ChangeIterator() {
      @Override
      public RowKind kind() {
        return diff.kind();
      }

      @Override
      public boolean hasNext() {
        return diff.hasNext();
      }

      @Override
      public InternalRow next() {
        return view.replace(diff.next());
      }

      @Override
      public void close() {
        diff.close();
      }
    };
  }

  /**
   * The merged rows of {@code splits} as one key-sorted stream: the buckets of one end hold
   * distinct keys, so a k-way merge of them is a sorted union.
   */
  private static CloseableIterator<InternalRow> sorted(
      SplitRead read, List<DataSplit> splits, KeyValueLayout layout) {
    List<CloseableIterator<InternalRow>> buckets = new ArrayList<>();
    for (DataSplit split : splits) {
      buckets.add(read.readKeyValues(split, false));
    }
    if (buckets.size() == 1) {
      return buckets.get(0);
    }
    return new MergeIterator(buckets, layout);
  }

  /** Every row of an append split's files, as inserts. */
  private ChangeIterator inserts(IncrementalSplit split) {
    DataSplit only = split.after().get(0);
    List<FileChange> files = new ArrayList<>();
    for (DataFileMeta file : only.files()) {
      if (BlobColumns.isBlobFile(file.fileName())) {
        continue; // read with its data file
      }
      files.add(new FileChange(only, file, RowKind.INSERT));
    }
    return new FileChanges(files);
  }

  /**
   * An append table's diff by file: rows of files only the end has are inserts, rows of files only
   * the start has deletes (a rewritten file counts as removed and added).
   */
  private ChangeIterator appendDiff(IncrementalSplit split) {
    Set<String> beforeNames = names(split.before());
    Set<String> afterNames = names(split.after());
    List<FileChange> changed = new ArrayList<>();
    for (DataSplit side : split.after()) {
      for (DataFileMeta file : side.files()) {
        if (BlobColumns.isBlobFile(file.fileName())) {
          continue; // read with its data file
        }
        if (!beforeNames.contains(file.fileName())) {
          changed.add(new FileChange(side, file, RowKind.INSERT));
        }
      }
    }
    for (DataSplit side : split.before()) {
      for (DataFileMeta file : side.files()) {
        if (BlobColumns.isBlobFile(file.fileName())) {
          continue;
        }
        if (!afterNames.contains(file.fileName())) {
          changed.add(new FileChange(side, file, RowKind.DELETE));
        }
      }
    }
    return new FileChanges(changed);
  }

  private static Set<String> names(List<DataSplit> splits) {
    Set<String> names = new HashSet<>();
    for (DataSplit split : splits) {
      for (DataFileMeta file : split.files()) {
        names.add(file.fileName());
      }
    }
    return names;
  }

  /**
   * The rows of a list of whole files, each file's rows of one kind (or, for changelog files read
   * in {@code schema}, of no fixed kind); opens one file at a time.
   */
  private final class FileChanges implements ChangeIterator {
    private final List<FileChange> files;
    private final SplitRead read;
    private final StructType schema;
    private int index;
    private CloseableIterator<InternalRow> current;
    private RowKind currentKind;
    private RowKind kind;

    FileChanges(List<FileChange> files) {
      this(files, table.newRead(readType), null);
    }

    FileChanges(List<FileChange> files, SplitRead read, @Nullable StructType schema) {
      this.files = files;
      this.read = read;
      this.schema = schema == null ? read.readType() : schema;
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        if (current != null) {
          current.close();
          current = null;
        }
        if (index >= files.size()) {
          return false;
        }
        FileChange next = files.get(index++);
        current = read.open(next.split(), next.file(), schema, null);
        currentKind = next.kind();
      }
      return true;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      kind = currentKind;
      return current.next();
    }

    @Override
    public RowKind kind() {
      return kind;
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
      }
    }
  }

  /** A whole file whose rows all have one kind (null: each row has its own). */
  private record FileChange(DataSplit split, DataFileMeta file, @Nullable RowKind kind) {}
}
